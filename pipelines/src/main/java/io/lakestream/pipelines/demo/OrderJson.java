package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.operators.parse.IsoInstantParser;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import io.lakestream.operators.parse.Utf8Text;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.Set;

/**
 * Parses and encodes orders as JSON. Parsing enforces the declared checks: {@code event_id} and
 * {@code order_id} present, {@code amount} a non-negative number, {@code order_ts} an ISO-8601
 * instant. A violation is a {@link RecordParseException} naming the field.
 *
 * <p>{@link #schemaOnly()} parses as Spark's {@code from_json(value, schema)} would, leaving the
 * value checks to the caller: {@code order_id} and {@code amount} may be missing or null and {@code
 * amount} may be negative. It still requires {@code event_id} and {@code order_ts} (the
 * deduplication key and the event time) and an {@code amount}, when present, that fits {@code
 * decimal(12,2)}.
 *
 * <p>Either way a {@code currency} must have at most 16 characters (it names the table's partition
 * directories), and a key given twice is a {@link RecordParseException} (one of its values would be
 * lost), as are bytes that are not UTF-8, text after the object and an instant outside years
 * 0001-9999.
 */
@Internal
public final class OrderJson implements RecordParser<Order>, RowEncoder<Order> {
  private static final long serialVersionUID = 1L;

  /** A key twice in one object is an error: one of its values would be dropped silently. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /**
   * The same settings without duplicate detection (its per-object hash set was a quarter of the
   * parse): the first pass, which tracks the top-level keys itself and leaves every record it
   * cannot decide, and every error, to a second pass with {@link #MAPPER}, so results and error
   * messages are those of the strict parser.
   */
  private static final JsonFactory LENIENT = JsonMapper.builder().build().getFactory();

  /** Longer currencies are refused: the value names a partition directory of the table. */
  static final int MAX_CURRENCY_LENGTH = 16;

  private final boolean valueChecks;

  /** A parser enforcing all declared checks. */
  public OrderJson() {
    this(true);
  }

  private OrderJson(boolean valueChecks) {
    this.valueChecks = valueChecks;
  }

  /**
   * A parser that checks only the JSON shape, {@code event_id}, {@code order_ts} and that a present
   * amount fits {@code decimal(12,2)}; the caller validates {@code order_id} and {@code amount}.
   */
  public static OrderJson schemaOnly() {
    return new OrderJson(false);
  }

  @Override
  public Order parse(String raw) throws RecordParseException {
    return parse(factory -> factory.createParser(raw));
  }

  /** Reads the UTF-8 bytes directly (no String of the whole record). */
  @Override
  public Order parseUtf8(byte[] raw) throws RecordParseException {
    Utf8Text.requireValid(raw); // Jackson passes encoded surrogates and code points > U+10FFFF
    return parse(factory -> factory.createParser(raw));
  }

  /** Opens a parser on the record's text. */
  @FunctionalInterface
  private interface RecordText {
    JsonParser open(JsonFactory factory) throws IOException;
  }

  /** The lenient pass, and the strict one for what it leaves. */
  private Order parse(RecordText text) throws RecordParseException {
    try (JsonParser p = text.open(LENIENT)) {
      Order order = read(p, valueChecks, false);
      if (order != null) {
        return order;
      }
    } catch (RecordParseException | IOException | RuntimeException e) {
      // the strict pass reports it
    }
    try (JsonParser p = text.open(MAPPER.getFactory())) {
      return read(p, valueChecks, true);
    } catch (IOException e) {
      throw new IllegalStateException("reading a String or a byte array cannot fail", e);
    }
  }

  /**
   * One pass over the tokens (no tree): this parser runs once per input record. With {@code strict}
   * false (a parser without Jackson's duplicate detection) it returns null for whatever only the
   * strict pass decides exactly: a key given twice in the object, or a nested value (whose keys
   * only Jackson checks).
   */
  private static Order read(JsonParser p, boolean valueChecks, boolean strict)
      throws RecordParseException, IOException {
    String eventId = null;
    String orderId = null;
    String customerId = null;
    String currency = null;
    String ts = null;
    BigDecimal amount = null;
    String badAmount = null;
    int knownSeen = 0; // one bit per field read below
    Set<String> othersSeen = null;
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new RecordParseException("expected a JSON object");
      }
      for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
        JsonToken value = p.nextToken();
        if (!strict) {
          if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
            return null;
          }
          int bit = knownFieldBit(field);
          if (bit != 0) {
            if ((knownSeen & bit) != 0) {
              return null;
            }
            knownSeen |= bit;
          } else {
            if (othersSeen == null) {
              othersSeen = new HashSet<>();
            }
            if (!othersSeen.add(field)) {
              return null;
            }
          }
        }
        switch (field) {
          case "event_id" -> eventId = text(p, value, field);
          case "order_id" ->
              orderId =
                  value == JsonToken.VALUE_NULL && !valueChecks ? null : text(p, value, field);
          case "order_ts" -> ts = text(p, value, field);
          case "customer_id" -> customerId = optionalText(p, value);
          case "currency" -> currency = optionalText(p, value);
          case "amount" -> {
            if (value.isNumeric()) {
              amount = p.getDecimalValue();
              badAmount = null;
            } else {
              amount = null;
              badAmount =
                  value == JsonToken.VALUE_NULL && !valueChecks
                      ? null
                      : value.isScalarValue() ? p.getText() : value.asString();
            }
          }
          default -> {}
        }
        p.skipChildren();
      }
      if (p.nextToken() != null) {
        throw new RecordParseException("unexpected content after the JSON object");
      }
    } catch (JsonProcessingException e) {
      throw new RecordParseException(
          "not valid JSON: " + e.getOriginalMessage() + " at column " + columnOf(e));
    }
    require(eventId, "event_id");
    if (valueChecks) {
      require(orderId, "order_id");
    }
    if (amount == null && (valueChecks || badAmount != null)) {
      throw new RecordParseException("field amount: expected a number, got " + badAmount);
    }
    if (valueChecks && amount.signum() < 0) {
      throw new RecordParseException("field amount: must be >= 0, got " + amount);
    }
    if (amount != null
        && ((long) amount.precision() - amount.scale() > 10
            || amount.stripTrailingZeros().scale() > 2)) {
      throw new RecordParseException(
          "field amount: does not fit decimal(12,2) (at most 10 digits before and 2 after the"
              + " point), got "
              + amount); // not toPlainString(): 1e999999999 would print a billion digits
    }
    if (currency != null && currency.length() > MAX_CURRENCY_LENGTH) {
      throw new RecordParseException(
          "field currency: at most "
              + MAX_CURRENCY_LENGTH
              + " characters (the orders table is partitioned by it), got "
              + currency.length());
    }
    require(ts, "order_ts");
    long tsMillis;
    try {
      tsMillis = IsoInstantParser.toEpochMillis(ts);
    } catch (DateTimeParseException e) {
      throw new RecordParseException("field order_ts: expected an ISO-8601 instant, got " + ts);
    }
    return new Order(eventId, orderId, customerId, amount, currency, tsMillis);
  }

  /** A bit per field {@link #read} reads, 0 for any other key. */
  private static int knownFieldBit(String field) {
    return switch (field) {
      case "event_id" -> 1;
      case "order_id" -> 2;
      case "order_ts" -> 4;
      case "customer_id" -> 8;
      case "currency" -> 16;
      case "amount" -> 32;
      default -> 0;
    };
  }

  @Override
  public String encode(Order order) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("event_id", order.eventId);
    node.put("order_id", order.orderId);
    node.put("customer_id", order.customerId);
    node.put("amount", order.amount);
    node.put("currency", order.currency);
    node.put("order_ts", Instant.ofEpochMilli(order.orderTsMillis).toString());
    return node.toString();
  }

  /**
   * An optional text field as Spark's {@code from_json} reads a string column: null, the text of a
   * scalar, or an object or array as its JSON text.
   */
  private static String optionalText(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    return value.isScalarValue() ? p.getText() : p.readValueAsTree().toString();
  }

  /** The text of a string value; a marker the checks report for anything else. */
  private static String text(JsonParser p, JsonToken value, String field)
      throws IOException, RecordParseException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    throw new RecordParseException(
        "field " + field + ": required text, got " + (value.isScalarValue() ? p.getText() : value));
  }

  private static void require(String value, String field) throws RecordParseException {
    if (value == null || value.isEmpty()) {
      throw new RecordParseException(
          "field " + field + ": required text, got " + (value == null ? "null" : "\"\""));
    }
  }

  private static long columnOf(JsonProcessingException e) {
    return e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
  }
}
