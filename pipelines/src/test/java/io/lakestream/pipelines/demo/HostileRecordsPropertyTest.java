package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import io.lakestream.pipelines.clicks.Click;
import io.lakestream.pipelines.clicks.ClickJson;
import io.lakestream.testkit.input.HostileJson;
import io.lakestream.testkit.input.HostileJson.Kind;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated hostile Kafka values ({@link HostileJson}: truncated, not UTF-8, NUL, deeply nested,
 * huge, out of range, wrong types, duplicate keys ...) through the record parsers of the Kafka
 * pipelines, thousands per parser. Each value is a row or a {@link RecordParseException}, never
 * another exception (which would fail the task again on every restart); bytes and text parse alike;
 * values that are never valid are rejected and valid ones keep their values; and through {@code
 * fromJson} input = rows + dead letters, with the demo's orders landing in a real Delta table. The
 * seed is printed, and set with {@code -Dlakestream.hostile.seed=N} to replay a failure.
 */
class HostileRecordsPropertyTest {
  private static final int CASES = 3_000;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");

  @TempDir Path dir;

  /** One valid record: its fields as JSON literals, and what a parser must return for it. */
  private record Valid<T>(Map<String, String> json, T expected) {}

  private static long seed() {
    long seed = Long.getLong("lakestream.hostile.seed", System.nanoTime());
    System.out.println("HostileRecordsPropertyTest seed " + seed);
    return seed;
  }

  private static String text(Random random) {
    String[] parts = {"a", "é", "日本", "\uD83D\uDE00", "\"", "\\", " ", "7", "-"};
    StringBuilder text = new StringBuilder("k");
    for (int i = random.nextInt(5); i > 0; i--) {
      text.append(parts[random.nextInt(parts.length)]);
    }
    return text.toString();
  }

  private static Instant instant(Random random) {
    return MIN.plusMillis(Math.floorMod(random.nextLong(), 315_537_897_599_000L));
  }

  private static String literal(Object value) {
    return JSON.valueToTree(value).toString();
  }

  private static Valid<Order> order(Random random) {
    Order order =
        new Order(
            text(random),
            text(random),
            random.nextBoolean() ? null : text(random),
            BigDecimal.valueOf(Math.floorMod(random.nextLong(), 1_000_000_000_000L), 2),
            random.nextBoolean() ? null : "EUR",
            instant(random).toEpochMilli());
    Map<String, String> json = new LinkedHashMap<>();
    json.put("event_id", literal(order.eventId));
    json.put("order_id", literal(order.orderId));
    json.put("customer_id", literal(order.customerId));
    json.put("amount", order.amount.toPlainString());
    json.put("currency", literal(order.currency));
    json.put("order_ts", literal(Instant.ofEpochMilli(order.orderTsMillis).toString()));
    return new Valid<>(json, order);
  }

  private static Valid<Click> click(Random random) {
    Click click = new Click(text(random), text(random), instant(random).toEpochMilli());
    Map<String, String> json = new LinkedHashMap<>();
    json.put("click_id", literal(click.clickId));
    json.put("ad_id", literal(click.adId));
    json.put("event_time", literal(Instant.ofEpochMilli(click.eventTimeMillis).toString()));
    return new Valid<>(json, click);
  }

  @Test
  void ordersWithAllChecksAreRowsOrDeadLettersAndTheRowsLandInDelta() throws Exception {
    List<Order> rows =
        run(
            "orders",
            new OrderJson(),
            Order.class,
            HostileRecordsPropertyTest::order,
            OrdersDemo::toDeltaRow,
            order -> {
              assertThat(order.eventId).isNotEmpty();
              assertThat(order.orderId).isNotEmpty();
              assertThat(order.amount.signum()).isNotNegative();
              assertFits(order);
            });
    DeltaTable table = DeltaTable.forPath(dir.resolve("orders").toString());
    List<Object[]> written = rows.stream().map(OrdersDemo::toDeltaRow).toList();
    DeltaAppendCommit commit = new DeltaAppendCommit(table, OrdersDemo.ORDERS_SCHEMA, "hostile");
    commit.open();
    commit.commit(1, new DeltaTableWriter(table, OrdersDemo.ORDERS_SCHEMA).write(written));
    assertThat(new DeltaTableReader(table).readLatest()).hasSize(rows.size());
  }

  @Test
  void ordersReadAsFromJsonWouldAreRowsOrDeadLetters() throws Exception {
    run(
        "orders (schema only)",
        OrderJson.schemaOnly(),
        Order.class,
        HostileRecordsPropertyTest::order,
        OrdersDemo::toDeltaRow,
        HostileRecordsPropertyTest::assertFits);
  }

  @Test
  void clicksAreRowsOrDeadLetters() throws Exception {
    run(
        "clicks",
        new ClickJson(),
        Click.class,
        HostileRecordsPropertyTest::click,
        c -> new Object[] {c.clickId, c.adId, c.eventTimeMillis},
        click -> {
          assertThat(click.clickId).isNotEmpty();
          assertThat(click.adId).isNotEmpty();
          assertInRange(click.eventTimeMillis);
        });
  }

  private static void assertFits(Order order) {
    assertThat(order.eventId).isNotEmpty();
    if (order.amount != null) {
      assertThat(order.amount.stripTrailingZeros().scale()).isLessThanOrEqualTo(2);
      assertThat(order.amount.precision() - order.amount.scale()).isLessThanOrEqualTo(10);
    }
    assertInRange(order.orderTsMillis);
  }

  private static void assertInRange(long epochMillis) {
    assertThat(Instant.ofEpochMilli(epochMillis).atZone(ZoneOffset.UTC).getYear())
        .isBetween(1, 9999);
  }

  /**
   * Runs {@link #CASES} generated values through {@code parser} directly and through {@code
   * fromJson}; returns the rows.
   */
  private <T> List<T> run(
      String name,
      RecordParser<T> parser,
      Class<T> rowType,
      Function<Random, Valid<T>> valid,
      Function<T, Object[]> fields,
      java.util.function.Consumer<T> rowCheck)
      throws Exception {
    long seed = seed();
    Random values = new Random(seed ^ 0x5DEECE66DL);
    HostileJson hostile = new HostileJson(seed, valid.apply(values).json());
    List<byte[]> inputs = new ArrayList<>();
    List<T> rows = new ArrayList<>();
    Map<Kind, int[]> tally = new EnumMap<>(Kind.class);
    for (int i = 0; i < CASES; i++) {
      Valid<T> record = valid.apply(values);
      HostileJson.Case c = hostile.next(record.json());
      String why = name + ", seed " + seed + ", case " + i + ", " + c.kind() + ": " + c.text();
      inputs.add(c.bytes());
      T row = parse(parser, c.bytes(), why);
      tally.computeIfAbsent(c.kind(), k -> new int[2])[row == null ? 1 : 0]++;
      if (c.kind() == Kind.VALID) {
        assertThat(row).as(why).isNotNull();
        assertThat(fields.apply(row)).as(why).containsExactly(fields.apply(record.expected()));
      } else if (c.kind().neverValid()) {
        assertThat(row).as(why).isNull();
      }
      if (row != null) {
        assertThat(row).as(why).satisfies(rowCheck::accept);
        rows.add(row);
      }
    }
    System.out.println(name + " cases by kind [rows, rejected]: " + describe(tally));
    assertFromJsonCountsAddUp(parser, inputs, rows.size(), rowType);
    return rows;
  }

  /** The row, or null for a {@link RecordParseException}; bytes and text must agree. */
  private static <T> T parse(RecordParser<T> parser, byte[] bytes, String why) {
    T fromBytes;
    try {
      fromBytes = parser.parseUtf8(bytes);
    } catch (RecordParseException e) {
      fromBytes = null;
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(why + ": not a RecordParseException: " + e, e);
    }
    String text = strictUtf8(bytes);
    if (text != null) {
      T fromText;
      try {
        fromText = parser.parse(text);
      } catch (RecordParseException e) {
        fromText = null;
      }
      assertThat(fromText == null)
          .as(why + ": bytes and text disagree")
          .isEqualTo(fromBytes == null);
    }
    return fromBytes;
  }

  private static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Every input comes out of fromJson as a row or a dead letter with its reason. */
  private static <T> void assertFromJsonCountsAddUp(
      RecordParser<T> parser, List<byte[]> inputs, int expectedRows, Class<T> rowType)
      throws Exception {
    FromJson.RawValue<byte[]> raw =
        new FromJson.RawValue<>() {
          @Override
          public byte[] value(byte[] record) {
            return record;
          }

          @Override
          public String position(byte[] record) {
            return "generated";
          }
        };
    TypeInformation<T> type = TypeInformation.of(rowType);
    try (OneInputStreamOperatorTestHarness<byte[], T> harness =
        ProcessFunctionTestHarnesses.forProcessFunction(new FromJson<>(raw, parser, type))) {
      for (byte[] input : inputs) {
        harness.processElement(input, 0);
      }
      List<DeadLetter> dead =
          harness.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS).stream()
              .map(StreamRecord::getValue)
              .toList();
      assertThat(harness.extractOutputValues()).hasSize(expectedRows);
      assertThat(dead).hasSize(inputs.size() - expectedRows);
      assertThat(dead).allSatisfy(d -> assertThat(d.error).isNotBlank());
      dead.forEach(d -> new OrdersDemo.DeadLetterJson().encode(d)); // the quarantine's encoding
    }
  }

  private static String describe(Map<Kind, int[]> tally) {
    StringBuilder text = new StringBuilder();
    tally.forEach(
        (k, v) -> text.append(k).append('[').append(v[0]).append(", ").append(v[1]).append("] "));
    return text.toString();
  }
}
