package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Parses and encodes orders as JSON. Parsing enforces the declared checks: {@code event_id} and
 * {@code order_id} present, {@code amount} a non-negative number, {@code order_ts} an ISO-8601
 * instant. A violation is a {@link RecordParseException} naming the field.
 */
public final class OrderJson implements RecordParser<Order>, RowEncoder<Order> {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public Order parse(String raw) throws RecordParseException {
    JsonNode node;
    try {
      node = MAPPER.readTree(raw);
    } catch (JsonProcessingException e) {
      throw new RecordParseException(
          "not valid JSON: " + e.getOriginalMessage() + " at column " + columnOf(e));
    }
    if (node == null || !node.isObject()) {
      throw new RecordParseException("expected a JSON object");
    }
    String eventId = requiredText(node, "event_id");
    String orderId = requiredText(node, "order_id");
    JsonNode amountNode = node.get("amount");
    if (amountNode == null || !amountNode.isNumber()) {
      throw new RecordParseException("field amount: expected a number, got " + amountNode);
    }
    BigDecimal amount = amountNode.decimalValue();
    if (amount.signum() < 0) {
      throw new RecordParseException("field amount: must be >= 0, got " + amount);
    }
    String ts = requiredText(node, "order_ts");
    long tsMillis;
    try {
      tsMillis = Instant.parse(ts).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new RecordParseException("field order_ts: expected an ISO-8601 instant, got " + ts);
    }
    JsonNode customer = node.get("customer_id");
    JsonNode currency = node.get("currency");
    return new Order(
        eventId,
        orderId,
        customer == null ? null : customer.asText(),
        amount,
        currency == null ? null : currency.asText(),
        tsMillis);
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

  private static String requiredText(JsonNode node, String field) throws RecordParseException {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || !value.isTextual() || value.asText().isEmpty()) {
      throw new RecordParseException("field " + field + ": required text, got " + value);
    }
    return value.asText();
  }

  private static long columnOf(JsonProcessingException e) {
    return e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
  }
}
