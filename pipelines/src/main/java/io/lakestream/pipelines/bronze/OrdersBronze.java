package io.lakestream.pipelines.bronze;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.pipelines.KafkaRecordValue;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.demo.Order;
import io.lakestream.pipelines.demo.OrderJson;
import io.lakestream.pipelines.demo.OrderTypeInfo;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.query.QueryContext;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Pipeline E2, the bronze job: Kafka topic {@code orders} (JSON) -> {@code fromJson} with dead
 * letters -> {@code withWatermark(order_ts, 1 hour)} -> {@code
 * dropDuplicatesWithinWatermark(event_id)} -> the exactly-once Delta table {@code orders_bronze}
 * (partitioned by currency), malformed records into {@code orders_bronze_dead_letters}.
 *
 * <p>The Spark original:
 *
 * <pre>{@code
 * spark.readStream.format("kafka").option("subscribe", "orders")...load()
 *   .select(from_json(col("value").cast("string"), schema).alias("o")).select("o.*")
 *   .withWatermark("order_ts", "1 hour").dropDuplicatesWithinWatermark(["event_id"])
 *   .writeStream.format("delta").trigger(processingTime="30 seconds")...
 * }</pre>
 *
 * <p>Source options come from {@code -o key=value} ({@code kafka.bootstrap.servers} required;
 * {@code subscribe} defaults to {@code orders}, {@code startingOffsets} to {@code earliest} for a
 * bronze table that should hold the whole topic). Default trigger: processingTime 30 s.
 */
@Internal
public final class OrdersBronze implements Pipeline {

  /** Event-time delay of the watermark: duplicates arrive within an hour of the original. */
  public static final Duration WATERMARK_DELAY = Duration.ofHours(1);

  @Override
  public String name() {
    return "bronze";
  }

  @Override
  public String description() {
    return "Kafka orders -> fromJson (dead letters) -> watermark 1h + dedup by event_id -> Delta"
        + " orders_bronze (E2)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.processingTime(Duration.ofSeconds(30));
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    return dataflow(options, UnaryOperator.identity());
  }

  /**
   * The dataflow with {@code tap} applied to the parsed orders before the watermark (tests use it
   * to inject failures). The job runs with Flink's object reuse on: none of its operators keeps a
   * reference to an element after passing it on (the Delta sink copies each row into its column
   * buffers at once), so chained operators hand elements over without a serializer copy. A {@code
   * tap} must not keep references to the orders it sees either.
   */
  public static Dataflow dataflow(PipelineOptions options, UnaryOperator<DataStream<Order>> tap) {
    OrdersTopic topic = OrdersTopic.of(options, "bronze");
    String bronzeTable = options.path("orders_bronze");
    String deadLetterTable = options.path("orders_bronze_dead_letters");
    return (env, query) -> {
      env.getConfig().enableObjectReuse();
      build(topic.records(env, query), query, tap, bronzeTable, deadLetterTable);
    };
  }

  private static void build(
      DataStream<KafkaRecord> records,
      QueryContext query,
      UnaryOperator<DataStream<Order>> tap,
      String bronzeTable,
      String deadLetterTable) {
    SingleOutputStreamOperator<Order> orders =
        FromJson.fromJson(
            records,
            KafkaRecordValue.INSTANCE,
            new OrderJson(),
            OrderTypeInfo.INSTANCE, // the keyBy exchange serializes orders without reflection
            "parse-orders");
    DataStream<Order> watermarked =
        Watermarks.withWatermark(
            tap.apply(orders),
            order -> order.orderTsMillis,
            WATERMARK_DELAY,
            "orders-watermark",
            query);
    DeduplicationBuilder.dropDuplicatesWithinWatermark(
            watermarked, KeyColumns.of("event_id", (Order o) -> o.eventId))
        .uid("dedup-orders")
        .build()
        .sinkTo(
            DeltaSinkBuilder.forTable(bronzeTable, OrdersDemo.ORDERS_SCHEMA, OrdersDemo::toDeltaRow)
                .query(query)
                .sinkName("bronze-sink")
                .build())
        .uid("bronze-sink")
        .name("orders_bronze Delta table");
    orders
        .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
        .sinkTo(
            JsonLinesFileSink.create(
                deadLetterTable, new OrdersDemo.DeadLetterJson(), query, "bronze-dead-letters"))
        .uid("bronze-dead-letters")
        .name("orders_bronze_dead_letters table");
  }
}
