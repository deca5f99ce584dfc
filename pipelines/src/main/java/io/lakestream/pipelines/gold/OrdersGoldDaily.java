package io.lakestream.pipelines.gold;

import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.MergeCondition;
import io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.time.LocalDate;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Pipeline E4, the gold job: the change data feed of the silver orders table -> orders count and
 * total amount per order day (day of {@code order_ts}, UTC), maintained from the changes in keyed
 * state -> the Delta table {@code orders_gold_daily}, upserted per day by a MERGE per epoch.
 *
 * <p>The Spark original (lesson section 5, E4b):
 *
 * <pre>{@code
 * changes = spark.readStream.format("delta").option("readChangeFeed", "true")
 *     .option("startingVersion", 70).table("lake.silver_orders")
 * gold_df.writeStream.format("delta").trigger(availableNow=True)
 *     .option("checkpointLocation", ".../orders_gold").toTable("lake.gold.orders_daily")
 * }</pre>
 *
 * <p>How changes become totals: {@code insert} and {@code update_postimage} add the order (count
 * +1, amount +amount) to its day, {@code update_preimage} and {@code delete} take it off, so an
 * update that moves an order to another day moves it between the days' totals; a null amount counts
 * the order but adds nothing, as SQL's {@code count(*)}, {@code sum(amount)}. The totals live in
 * keyed state ({@link DailyTotalsOperator}, uid {@code daily-totals}), which emits, at the end of
 * each epoch, the absolute totals of each day the epoch changed (Spark's update output mode).
 *
 * <p>Why a MERGE of absolute totals rather than complete mode: per epoch only the days that changed
 * are written (a nightly run touches a few days; complete mode would rewrite every day ever seen,
 * and the Delta sink refuses complete mode on tables with change data feed, which gold has for its
 * own consumers). The MERGE ({@code ON order_date}; should a day come twice, the row with more
 * {@code change_rows} wins) updates or inserts the day's totals and deletes a day whose orders fell
 * to zero; it commits with {@code txn(appId, epoch)}, so a replayed epoch is skipped, and since its
 * rows are absolute totals, even a re-applied epoch would leave the same table.
 *
 * <p>Options ({@code -o key=value}): {@code path} = the silver table (default {@code
 * <output>/orders_silver}); the Delta CDF source options ({@code startingVersion},
 * maxFilesPerTrigger, maxBytesPerTrigger, pollInterval). Without {@code startingVersion}, as in
 * Spark, a new query first reads silver's latest snapshot as inserts, which gives complete totals
 * even when older versions are gone from the log, then the changes of later versions. With a
 * startingVersion the totals count only changes from that version on (the feed must be enabled from
 * there; otherwise the query fails naming the property and the version). Default trigger:
 * availableNow (the deterministic nightly replay: it reads what is committed when it starts, then
 * stops; the next run resumes from the checkpoint); processingTime also works.
 */
@Internal
public final class OrdersGoldDaily implements Pipeline {

  /** The silver table the lesson creates (E4a), as written by pipeline E3. */
  public static final DeltaTableSchema SILVER_SCHEMA =
      DeltaTableSchema.builder()
          .column("order_id", ColumnType.STRING, false)
          .column("order_ts", ColumnType.TIMESTAMP)
          .column("customer_id", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("updated_at", ColumnType.TIMESTAMP)
          .property(DeltaChangeLog.ENABLE_PROPERTY, "true")
          .build();

  /** Option naming the silver table, as Spark's {@code load(path)}. */
  public static final String PATH_OPTION = "path";

  /** The CDF source's uid and name. */
  public static final String SOURCE_UID = "silver-cdf";

  /** The keyed aggregate's uid. */
  public static final String AGGREGATE_UID = "daily-totals";

  /** The gold sink's uid and name. */
  public static final String SINK_UID = "gold-merge";

  private static final MergeCondition NO_ORDERS_LEFT = (source, target) -> (Long) source[1] == 0L;
  private static final MergeCondition HAS_ORDERS = (source, target) -> (Long) source[1] != 0L;

  @Override
  public String name() {
    return "gold";
  }

  @Override
  public String description() {
    return "Delta CDF of orders_silver -> orders and amount per order day (keyed state) -> MERGE"
        + " into Delta orders_gold_daily (E4)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    return dataflow(options, UnaryOperator.identity(), UnaryOperator.identity());
  }

  /**
   * The dataflow with {@code tap} applied to the order changes before the aggregate and {@code
   * wrap} to the gold MERGE function (tests use them to inject failures).
   *
   * @throws IllegalArgumentException for a silver table that cannot feed gold
   * @throws io.lakestream.api.error.LakestreamException for a bad option
   */
  public static Dataflow dataflow(
      PipelineOptions options,
      UnaryOperator<DataStream<OrderChange>> tap,
      UnaryOperator<EpochFunction> wrap) {
    SilverFeed silver = SilverFeed.of(options, "gold", key -> false);
    DeltaTableSchema gold = goldSchema(silver.totalAmountType());
    String goldPath = options.path("orders_gold_daily");
    return (env, query) -> {
      DataStream<OrderChange> changes = silver.changes(env, query);
      DeltaMergeCommit merge =
          new DeltaMergeCommit(
              DeltaMerge.into(DeltaTable.forPath(goldPath), gold, "order_date")
                  .whenMatchedDelete(NO_ORDERS_LEFT)
                  .whenMatchedUpdateAll()
                  .whenNotMatchedInsertAll(HAS_ORDERS)
                  .lastByOrderingColumn("change_rows")
                  .build(),
              query.appId());
      tap.apply(changes)
          .keyBy(change -> change.epochDay, TypeInformation.of(Long.class))
          .transform(
              "orders and amount per day",
              TypeInformation.of(DailyTotals.class),
              new DailyTotalsOperator())
          .uid(AGGREGATE_UID)
          .sinkTo(
              ForeachBatchSinkBuilder.forStaging(
                      query.checkpointLocation().replaceAll("/+$", "") + "/staging/" + SINK_UID,
                      gold,
                      goldRow(gold))
                  .function(wrap.apply(merge.asEpochFunction()))
                  .query(query)
                  .sinkName(SINK_UID)
                  .build())
          .uid(SINK_UID)
          .name("orders_gold_daily MERGE");
    };
  }

  /**
   * The gold table: {@code order_date} (the key), {@code orders}, {@code total_amount} (a decimal
   * 10 digits wider than silver's amount, as Spark's {@code sum}; double for a floating amount),
   * {@code silver_version} (newest silver version applied to the day), {@code change_rows} (change
   * rows applied to the day). Change data feed enabled for gold's own consumers.
   */
  public static DeltaTableSchema goldSchema(ColumnType totalAmountType) {
    return DeltaTableSchema.builder()
        .column("order_date", ColumnType.DATE, false)
        .column("orders", ColumnType.LONG, false)
        .column("total_amount", totalAmountType)
        .column("silver_version", ColumnType.LONG, false)
        .column("change_rows", ColumnType.LONG, false)
        .property(DeltaChangeLog.ENABLE_PROPERTY, "true")
        .build();
  }

  /** The type of {@code total_amount} for the silver table at {@code silverPath}. */
  static ColumnType silverAmountType(String silverPath) {
    StructType schema;
    try {
      schema =
          DeltaTable.forPath(silverPath)
              .latestSnapshot()
              .orElseThrow(
                  () ->
                      new LakestreamException(
                          PipelineErrorClass.PIPELINE_INVALID_INPUT,
                          "pipeline gold reads the change feed of the silver table at "
                              + silverPath
                              + ", but there is no Delta table there: run pipeline silver first,"
                              + " or give the table with -o path=<silver table>"))
              .getSchema();
    } catch (DeltaTableException e) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_INPUT,
          "pipeline gold cannot read the silver table at " + silverPath + ": " + e.getMessage(),
          e);
    }
    for (String column : SilverChanges.REQUIRED_COLUMNS) {
      if (schema.indexOf(column) < 0) {
        throw new LakestreamException(
            PipelineErrorClass.PIPELINE_INVALID_INPUT,
            "The silver table at "
                + silverPath
                + " has no column '"
                + column
                + "'; the gold aggregate needs "
                + SilverChanges.REQUIRED_COLUMNS
                + ", the table has "
                + schema.fieldNames());
      }
    }
    DataType amount = schema.get("amount").getDataType();
    if (amount instanceof DecimalType d) {
      return ColumnType.decimal(Math.min(38, d.getPrecision() + 10), d.getScale());
    }
    if (amount instanceof DoubleType || amount instanceof FloatType) {
      return ColumnType.DOUBLE;
    }
    if (amount instanceof LongType || amount instanceof IntegerType) {
      return ColumnType.decimal(38, 0);
    }
    throw new LakestreamException(
        PipelineErrorClass.PIPELINE_INVALID_INPUT,
        "The amount column of the silver table at "
            + silverPath
            + " is "
            + amount
            + "; the gold aggregate sums decimal, double, float, long or integer amounts");
  }

  /** Totals as a gold row (values in {@link #goldSchema} order). */
  static RowFields<DailyTotals> goldRow(DeltaTableSchema gold) {
    boolean floating =
        gold.columns().get(gold.indexOf("total_amount")).type().equals(ColumnType.DOUBLE);
    return t ->
        new Object[] {
          LocalDate.ofEpochDay(t.epochDay),
          t.orders,
          floating ? (Object) t.totalAmount.doubleValue() : (Object) t.totalAmount,
          t.lastCommitVersion,
          t.changeRows
        };
  }
}
