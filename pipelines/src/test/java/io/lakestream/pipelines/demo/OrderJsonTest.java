package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lakestream.operators.parse.RecordParseException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OrderJsonTest {
  private final OrderJson json = new OrderJson();

  @Test
  void parsesEveryFieldAndSkipsUnknownOnesOfAnyShape() throws Exception {
    Order o =
        json.parse(
            "{\"extra\":{\"a\":[1,{\"b\":2}]},\"event_id\":\"e1\",\"order_id\":\"o1\","
                + "\"customer_id\":\"c1\",\"amount\":12.30,\"currency\":\"EUR\","
                + "\"tags\":[\"x\"],\"order_ts\":\"2026-03-01T10:00:00.250Z\"}");
    assertThat(o.eventId).isEqualTo("e1");
    assertThat(o.orderId).isEqualTo("o1");
    assertThat(o.customerId).isEqualTo("c1");
    assertThat(o.amount).isEqualByComparingTo(new BigDecimal("12.3"));
    assertThat(o.currency).isEqualTo("EUR");
    assertThat(o.orderTsMillis).isEqualTo(Instant.parse("2026-03-01T10:00:00.250Z").toEpochMilli());

    Order minimal =
        json.parse(
            "{\"event_id\":\"e2\",\"order_id\":\"o2\",\"amount\":5,\"customer_id\":null,"
                + "\"order_ts\":\"2026-03-01T10:00:00+01:00\"}");
    assertThat(minimal.customerId).isNull();
    assertThat(minimal.currency).isNull();
    assertThat(minimal.orderTsMillis)
        .isEqualTo(Instant.parse("2026-03-01T09:00:00Z").toEpochMilli());
  }

  @Test
  void encodeThenParseRoundTrips() throws Exception {
    Order o = new Order("e", "o", "c", new BigDecimal("1234567890.99"), "USD", 1_772_359_200_123L);
    Order back = json.parse(json.encode(o));
    assertThat(OrdersDemo.toDeltaRow(back)).containsExactly(OrdersDemo.toDeltaRow(o));
  }

  @Test
  void bytesAndStringsParseAlikeAndInvalidUtf8IsRejectedNotReplaced() throws Exception {
    String raw =
        "{\"event_id\":\"é1\",\"order_id\":\"o\",\"amount\":7.5,\"currency\":\"€\","
            + "\"order_ts\":\"2026-03-01T10:00:00Z\"}";
    assertThat(OrdersDemo.toDeltaRow(json.parseUtf8(raw.getBytes(StandardCharsets.UTF_8))))
        .containsExactly(OrdersDemo.toDeltaRow(json.parse(raw)));
    byte[] broken = raw.getBytes(StandardCharsets.UTF_8);
    broken[14] = (byte) 0xC3; // 'é' is C3 A9 at 13..14: now C3 C3, no valid UTF-8
    assertThatThrownBy(() -> json.parseUtf8(broken))
        .isInstanceOf(RecordParseException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void eachBrokenRuleNamesItsField() {
    String ok = "\"order_id\":\"o\",\"amount\":1,\"order_ts\":\"2026-03-01T10:00:00Z\"";
    assertRejected("[1,2]", "expected a JSON object");
    assertRejected("{\"event_id\":\"e\"", "not valid JSON");
    assertRejected("{\"event_id\":\"e\"," + ok + "} {}", "after the JSON object");
    assertRejected("{" + ok + "}", "field event_id: required text, got null");
    assertRejected("{\"event_id\":7," + ok + "}", "field event_id: required text, got 7");
    assertRejected("{\"event_id\":\"\"," + ok + "}", "field event_id: required text");
    String base = "{\"event_id\":\"e\",\"order_id\":\"o\",\"order_ts\":\"2026-03-01T10:00:00Z\",";
    assertRejected(base + "\"amount\":\"12\"}", "field amount: expected a number, got 12");
    assertRejected(base + "\"amount\":-1}", "field amount: must be >= 0");
    assertRejected(base + "\"amount\":1.005}", "field amount: does not fit decimal(12,2)");
    assertRejected(base + "\"amount\":12345678901}", "field amount: does not fit decimal(12,2)");
    assertRejected(
        "{\"event_id\":\"e\",\"order_id\":\"o\",\"amount\":1,\"order_ts\":\"2026-02-30T00:00:00Z\"}",
        "field order_ts: expected an ISO-8601 instant");
  }

  @Test
  void schemaOnlyLeavesOrderIdAndAmountChecksToTheCaller() throws Exception {
    OrderJson lenient = OrderJson.schemaOnly();
    String ts = "\"order_ts\":\"2026-03-01T10:00:00Z\"";
    Order noId = lenient.parse("{\"event_id\":\"e\",\"order_id\":null,\"amount\":-2.5," + ts + "}");
    assertThat(noId.orderId).isNull();
    assertThat(noId.amount).isEqualByComparingTo("-2.5");
    Order noAmount = lenient.parse("{\"event_id\":\"e\",\"order_id\":\"o\"," + ts + "}");
    assertThat(noAmount.amount).isNull();
    assertThat(lenient.parse("{\"event_id\":\"e\",\"amount\":null," + ts + "}").amount).isNull();
    // Still required: the dedup key, the event time, a number that fits decimal(12,2).
    assertThatThrownBy(() -> lenient.parse("{\"order_id\":\"o\"," + ts + "}"))
        .hasMessageContaining("field event_id");
    assertThatThrownBy(() -> lenient.parse("{\"event_id\":\"e\",\"amount\":1}"))
        .hasMessageContaining("field order_ts");
    assertThatThrownBy(() -> lenient.parse("{\"event_id\":\"e\",\"amount\":\"x\"," + ts + "}"))
        .hasMessageContaining("field amount: expected a number, got x");
    assertThatThrownBy(() -> lenient.parse("{\"event_id\":\"e\",\"amount\":1.005," + ts + "}"))
        .hasMessageContaining("does not fit decimal(12,2)");
    assertThatThrownBy(() -> lenient.parse("{\"event_id\":\"e\"," + ts))
        .hasMessageContaining("not valid JSON");
    // The default parser still enforces them.
    assertRejected("{\"event_id\":\"e\",\"order_id\":null,\"amount\":1," + ts + "}", "order_id");
    assertRejected("{\"event_id\":\"e\",\"order_id\":\"o\",\"amount\":null," + ts + "}", "amount");
  }

  /**
   * The first, lenient pass leaves keys given twice (at any depth) to the strict parser: the
   * message is Jackson's own, with its column.
   */
  @Test
  void keysGivenTwiceAreRejectedAtAnyDepthWithTheStrictParsersMessage() throws Exception {
    String ok =
        "\"event_id\":\"e\",\"order_id\":\"o\",\"amount\":1,\"order_ts\":\"2026-03-01T10:00:00Z\"";
    String[] twice = {
      "{" + ok + ",\"event_id\":\"f\"}",
      "{\"amount\":2," + ok + "}",
      "{\"x\":1," + ok + ",\"x\":2}",
      "{\"x\":1,\"y\":2,\"x\":3 ,,}", // the duplicate comes before the syntax error
      "{" + ok + ",\"extra\":{\"a\":1,\"b\":[{\"c\":1,\"c\":2}]}}",
      "{" + ok + ",\"customer_id\":{\"a\":1,\"a\":2}}",
      "{\"event\\u005fid\":\"g\", " + ok + "}", // an escaped name is the same key
      "{\n  \"currency\": \"EUR\",\n  \"currency\": \"USD\"," + ok + "}"
    };
    for (String raw : twice) {
      String expected;
      try (JsonParser p =
          JsonMapper.builder()
              .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
              .build()
              .createParser(raw)) {
        while (p.nextToken() != null) {}
        throw new AssertionError("Jackson accepted " + raw);
      } catch (JsonProcessingException e) {
        expected =
            "not valid JSON: "
                + e.getOriginalMessage()
                + " at column "
                + e.getLocation().getColumnNr();
      }
      assertThat(expected).as(raw).contains("Duplicate field");
      for (OrderJson parser : new OrderJson[] {json, OrderJson.schemaOnly()}) {
        assertThatThrownBy(() -> parser.parse(raw)).as(raw).hasMessage(expected);
        assertThatThrownBy(() -> parser.parseUtf8(raw.getBytes(StandardCharsets.UTF_8)))
            .as(raw)
            .hasMessage(expected);
      }
    }
    // Nested values of any shape still parse when no key repeats.
    assertThat(json.parse("{" + ok + ",\"customer_id\":{\"a\":[1,{\"a\":2}]}}").customerId)
        .isEqualTo("{\"a\":[1,{\"a\":2}]}");
  }

  private void assertRejected(String raw, String message) {
    assertThatThrownBy(() -> json.parse(raw))
        .as(raw)
        .isInstanceOf(RecordParseException.class)
        .hasMessageContaining(message);
  }
}
