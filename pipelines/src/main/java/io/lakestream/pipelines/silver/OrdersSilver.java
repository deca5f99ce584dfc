package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.observe.Observe;
import io.lakestream.operators.observe.ObservedAggregate;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.pipelines.KafkaRecordValue;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.demo.Order;
import io.lakestream.pipelines.demo.OrderJson;
import io.lakestream.pipelines.demo.OrdersTopic;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.query.QueryContext;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * Pipeline E3, the silver job: Kafka topic {@code orders} (JSON) -> {@code fromJson} -> {@code
 * withWatermark(order_ts, 1 hour)} -> {@code dropDuplicatesWithinWatermark(event_id)} ->
 * foreachBatch ({@link SilverEpochFunction}): valid orders ({@code order_id IS NOT NULL AND amount
 * >= 0}, {@link OrderValidation}) are MERGEd into the Delta table {@code orders_silver} (key {@code
 * order_id}, change data feed enabled, a newer {@code order_ts} wins), every other record is
 * appended to the Delta table {@code orders_silver_quarantine} with its {@link RejectReason}:
 * malformed JSON (with raw value, error and {@code topic/partition@offset}), events behind the
 * watermark, missing {@code order_id}, missing or negative {@code amount}. Nothing is dropped
 * silently.
 *
 * <p>Exactly once per table: the MERGE commits with {@code txn(appId, epoch)}, the quarantine
 * append with {@code txn(appId-dlq, epoch)}; a replayed epoch is skipped by each table that holds
 * it. The appId is the query's, so a new checkpoint location gets a new one.
 *
 * <p>The Spark original (section 4.2 of the guide):
 *
 * <pre>{@code
 * def upsert_to_silver(batch_df, batch_id):
 *     valid = batch_df.filter("order_id IS NOT NULL AND amount >= 0")
 *     rejects = batch_df.filter("order_id IS NULL OR amount < 0")
 *     DeltaTable.forName(spark, "lake.silver_orders").merge(valid.alias("s"), "s.order_id = t.order_id")
 *        .whenMatchedUpdateAll(condition="s.order_ts > t.order_ts").whenNotMatchedInsertAll().execute()
 *     rejects.write.format("delta").mode("append")
 *        .option("txnAppId", f"{APP_ID}-dlq").option("txnVersion", batch_id).saveAsTable(...)
 * deduped.writeStream.foreachBatch(upsert_to_silver).trigger(processingTime="30 seconds").start()
 * }</pre>
 *
 * <p>Source options come from {@code -o key=value} ({@code kafka.bootstrap.servers} required;
 * {@code subscribe} defaults to {@code orders}, {@code startingOffsets} to {@code earliest}).
 * Default trigger: processingTime 30 s; {@code --trigger availableNow} processes what the topic
 * holds and stops. The epoch's rows are staged under the checkpoint location ({@code
 * foreach-batch/silver-merge}).
 */
@Internal
public final class OrdersSilver implements Pipeline {

  /** Event-time delay of the watermark: duplicates and updates arrive within an hour. */
  public static final Duration WATERMARK_DELAY = Duration.ofHours(1);

  /** Directory of the silver table below the output. */
  public static final String SILVER_TABLE = "orders_silver";

  /** Directory of the quarantine table below the output. */
  public static final String QUARANTINE_TABLE = "orders_silver_quarantine";

  private static final OutputTag<Order> LATE_ORDERS =
      new OutputTag<>("late-orders", TypeInformation.of(Order.class));

  @Override
  public String name() {
    return "silver";
  }

  @Override
  public String description() {
    return "Kafka orders -> fromJson -> watermark 1h + dedup by event_id -> foreachBatch MERGE into"
        + " Delta orders_silver, rejects into orders_silver_quarantine (E3)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.processingTime(Duration.ofSeconds(30));
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    return dataflow(options, UnaryOperator.identity(), UnaryOperator.identity());
  }

  /**
   * The dataflow with {@code tap} applied to the parsed orders before the watermark and {@code
   * epochTap} wrapped around the epoch function (tests use them to inject failures).
   */
  public static Dataflow dataflow(
      PipelineOptions options,
      UnaryOperator<DataStream<Order>> tap,
      UnaryOperator<EpochFunction> epochTap) {
    OrdersTopic topic = OrdersTopic.of(options, "silver");
    DeltaTable silver = DeltaTable.forPath(options.path(SILVER_TABLE));
    DeltaTable quarantine = DeltaTable.forPath(options.path(QUARANTINE_TABLE));
    return (env, query) -> {
      DataStream<KafkaRecord> records = topic.records(env, query);
      EpochFunction function =
          epochTap.apply(new SilverEpochFunction(silver, quarantine, query.appId()));
      build(records, query, tap, function);
    };
  }

  /** The observation of each epoch's input quality (rows, malformed, late, malformedRatio). */
  public static final String QUALITY = "silver_quality";

  private static final String MALFORMED = RejectReason.MALFORMED_RECORD.name();
  private static final String LATE = RejectReason.LATE_EVENT.name();

  private static void build(
      DataStream<KafkaRecord> records,
      QueryContext query,
      UnaryOperator<DataStream<Order>> tap,
      EpochFunction function) {
    SingleOutputStreamOperator<Order> orders =
        FromJson.fromJson(
            records,
            KafkaRecordValue.INSTANCE,
            OrderJson.schemaOnly(),
            TypeInformation.of(Order.class),
            "parse-orders");
    DataStream<Order> watermarked =
        Watermarks.withWatermark(
            tap.apply(orders),
            order -> order.orderTsMillis,
            WATERMARK_DELAY,
            "orders-watermark",
            query);
    SingleOutputStreamOperator<Order> deduped =
        DeduplicationBuilder.dropDuplicatesWithinWatermark(
                watermarked, KeyColumns.of("event_id", (Order o) -> o.eventId))
            .lateRowsTo(LATE_ORDERS)
            .uid("dedup-orders")
            .build();
    long delayMillis = WATERMARK_DELAY.toMillis();
    DataStream<SilverInput> inputs =
        deduped
            .map(SilverInput::order)
            .returns(SilverInput.class)
            .uid("silver-orders")
            .name("orders to validate")
            .union(
                deduped
                    .getSideOutput(LATE_ORDERS)
                    .map(order -> SilverInput.late(order, delayMillis))
                    .returns(SilverInput.class)
                    .uid("silver-late-orders")
                    .name("late orders"),
                orders
                    .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
                    .map(SilverInput::malformed)
                    .returns(SilverInput.class)
                    .uid("silver-malformed")
                    .name("malformed records"));
    // the seeds' data quality per epoch: progress's observedMetrics.silver_quality
    Observe.observe(
            inputs,
            query,
            QUALITY,
            ObservedAggregate.count("rows"),
            ObservedAggregate.countIf("malformed", (SilverInput in) -> MALFORMED.equals(in.reason)),
            ObservedAggregate.countIf("late", (SilverInput in) -> LATE.equals(in.reason)),
            ObservedAggregate.ratio("malformedRatio", "malformed", "rows"))
        .sinkTo(
            ForeachBatchSinkBuilder.forStaging(
                    stagingPath(query), OrdersSilverTables.STAGING, OrdersSilverTables::stagingRow)
                .function(function)
                .query(query)
                .sinkName("silver-merge")
                .build())
        .uid("silver-merge")
        .name("MERGE into orders_silver, rejects into orders_silver_quarantine");
  }

  /** Where the foreachBatch sink stages the epoch's rows: private to the query. */
  static String stagingPath(QueryContext query) {
    return query.checkpointLocation().replaceAll("/+$", "") + "/foreach-batch/silver-merge";
  }
}
