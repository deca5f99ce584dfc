package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.connectors.rate.OrderEventGenerator;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The demo: an order "topic" (a rate source with event times, producer-retry duplicates, late and
 * malformed records) -> parse with dead letters -> event-time watermark -> the exactly-once Delta
 * table {@code orders} (partitioned by currency) and the JSON-lines quarantine {@code
 * orders_dead_letters}. Needs no external service. Its default trigger is availableNow: a run
 * processes what the topic holds and stops with a savepoint; run it again with a larger {@code
 * --rows} and it continues where it stopped.
 */
@Internal
public final class OrdersDemo implements Pipeline {

  /** Fixed start of event time, so every run generates identical data. */
  static final Instant EVENT_TIME_START = Instant.parse("2026-01-01T00:00:00Z");

  /** The orders Delta table, partitioned by currency. */
  public static final DeltaTableSchema ORDERS_SCHEMA =
      DeltaTableSchema.builder()
          .column("event_id", ColumnType.STRING, false)
          .column("order_id", ColumnType.STRING, false)
          .column("customer_id", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("currency", ColumnType.STRING)
          .column("order_ts", ColumnType.TIMESTAMP)
          .partitionedBy("currency")
          .build();

  static final long DEFAULT_ROWS = 20_000;
  static final int PARTITIONS = 4;
  static final int DUPLICATE_EVERY = 50;
  static final int MALFORMED_EVERY = 997;

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String description() {
    return "generated orders -> parse (dead letters) -> watermark -> Delta table orders";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    long rows = options.rows() > 0 ? options.rows() : DEFAULT_ROWS;
    long rate = options.rowsPerSecond();
    String ordersTable = options.path("orders");
    String deadLetterTable = options.path("orders_dead_letters");
    return (env, query) -> {
      OrderEventGenerator generator =
          new OrderEventGenerator(
              EVENT_TIME_START.toEpochMilli(),
              rate > 0 ? rate : 1000,
              DUPLICATE_EVERY,
              MALFORMED_EVERY);
      OrderJson json = new OrderJson();

      SingleOutputStreamOperator<Order> orders =
          env.fromSource(
                  RateSourceBuilder.rate("orders-generator", generator, Types.STRING)
                      .rows(rows)
                      .numPartitions(PARTITIONS)
                      .rowsPerSecond(rate)
                      .maxRowsPerTrigger(options.maxRowsPerTrigger())
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "orders-generator")
              .uid("orders-generator")
              .process(
                  new ParseWithDeadLetters<>(
                      json, TypeInformation.of(Order.class), "orders-generator"))
              .uid("parse-orders")
              .name("parse orders");

      Watermarks.withWatermark(
              orders, order -> order.orderTsMillis, Duration.ofSeconds(5), "orders-watermark")
          .sinkTo(
              DeltaSinkBuilder.forTable(ordersTable, ORDERS_SCHEMA, OrdersDemo::toDeltaRow)
                  .query(query)
                  .sinkName("orders-sink")
                  .build())
          .uid("orders-sink")
          .name("orders Delta table");

      orders
          .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
          .sinkTo(
              JsonLinesFileSink.create(
                  deadLetterTable, new DeadLetterJson(), query, "dead-letter-sink"))
          .uid("dead-letter-sink")
          .name("orders_dead_letters table");
    };
  }

  /** An order as a row of {@link #ORDERS_SCHEMA}. */
  public static Object[] toDeltaRow(Order order) {
    return new Object[] {
      order.eventId,
      order.orderId,
      order.customerId,
      order.amount == null ? null : order.amount.setScale(2, java.math.RoundingMode.UNNECESSARY),
      order.currency,
      Instant.ofEpochMilli(order.orderTsMillis)
    };
  }

  /** Dead letters as JSON lines: raw, error, source, rejected_at. */
  public static final class DeadLetterJson implements RowEncoder<DeadLetter> {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public String encode(DeadLetter letter) {
      ObjectNode node = MAPPER.createObjectNode();
      node.put("raw", letter.raw);
      node.put("error", letter.error);
      node.put("source", letter.source);
      node.put("rejected_at", Instant.ofEpochMilli(letter.rejectedAtMillis).toString());
      return node.toString();
    }
  }
}
