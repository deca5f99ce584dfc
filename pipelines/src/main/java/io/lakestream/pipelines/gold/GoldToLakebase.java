package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * {@code lakestream run gold-to-lakebase}: the change data feed of the silver orders table ->
 * orders count and total amount per order day (the gold aggregate, {@link DailyTotalsOperator}) ->
 * upserts into a Lakebase (PostgreSQL) table keyed by {@code order_date}, for an application to
 * read: {@code order_date}, {@code orders}, {@code total_amount}, {@code silver_version}, {@code
 * change_rows}. A day whose orders fall to zero keeps its row with 0 orders (a delete would let a
 * replayed upsert bring it back).
 *
 * <p>Default trigger realTime (checkpoints every 30 s): each change upserts its day's new totals at
 * once (sub-second), at least once; the version guard {@code versioncolumn=change_rows} (set unless
 * {@code -o} names another, or {@code deliveryGuarantee=exactly-once}) makes a replay after a
 * failure skip the totals the table already has or has passed, so a reader never sees a day go
 * back. With processingTime, availableNow or once the sink is exactly-once: an epoch's changed days
 * are staged and applied when its checkpoint completes, each epoch once.
 *
 * <p>Options ({@code -o key=value}, keys ignore case): the Lakebase sink's, named as in the seeds
 * ({@code endpoint}, {@code database}, {@code dbtable} (default {@code orders_gold_daily}), {@code
 * user}, {@code password}/{@code passwordfile}/{@code credential}, {@code batchsize}, {@code
 * batchinterval}, {@code deliveryGuarantee}, {@code versioncolumn}, ...; see
 * docs/options/lakebase-sink.md); every other option goes to the silver feed as in pipeline gold
 * ({@code path}, {@code startingVersion}, {@code maxFilesPerTrigger}, ...). A bad option fails
 * before the job starts, naming it.
 */
@Internal
public final class GoldToLakebase implements Pipeline {

  /** The table written when option dbtable is not given. */
  public static final String DEFAULT_TABLE = "orders_gold_daily";

  /** The Lakebase sink's uid. */
  public static final String SINK_UID = "gold-lakebase";

  /** The default trigger's checkpoint interval. */
  public static final Duration REAL_TIME_CHECKPOINT_INTERVAL = Duration.ofSeconds(30);

  @Override
  public String name() {
    return "gold-to-lakebase";
  }

  @Override
  public String description() {
    return "Delta CDF of orders_silver -> orders and amount per order day -> Lakebase (PostgreSQL)"
        + " upserts into orders_gold_daily (realTime by default)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.realTime(REAL_TIME_CHECKPOINT_INTERVAL);
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    return dataflow(options, UnaryOperator.identity());
  }

  /**
   * The dataflow with {@code tap} applied to the order changes before the aggregate (tests inject
   * failures there).
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option or silver table
   */
  public static Dataflow dataflow(
      PipelineOptions options, UnaryOperator<DataStream<OrderChange>> tap) {
    // the sink's keys and aliases (e.g. spark.databricks.sql.streaming.jdbc.tasksPerConnection)
    Predicate<String> sinkOption = key -> LakebaseSinkOptions.CATALOG.find(key).isPresent();
    SilverFeed silver = SilverFeed.of(options, "gold-to-lakebase", sinkOption);
    Map<String, String> sinkOptions = new LinkedHashMap<>();
    options
        .sourceOptions()
        .forEach(
            (key, value) -> {
              if (sinkOption.test(key)) {
                sinkOptions.put(key, value);
              }
            });
    LakebaseSchema schema = schema(silver.totalAmountType());
    return (env, query) -> {
      Map<String, String> sink = withDefaults(sinkOptions, query.realTime());
      tap.apply(silver.changes(env, query))
          .keyBy(change -> change.epochDay, TypeInformation.of(Long.class))
          .transform(
              "orders and amount per day",
              TypeInformation.of(DailyTotals.class),
              new DailyTotalsOperator(query.realTime()))
          .uid(OrdersGoldDaily.AGGREGATE_UID)
          .sinkTo(
              LakebaseSinkBuilder.forSchema(schema, row(schema))
                  .options(sink)
                  .declaredKey(List.of("order_date"), "pipeline gold-to-lakebase's key")
                  .query(query)
                  .build())
          .uid(SINK_UID)
          .name("Lakebase " + sink.getOrDefault("dbtable", DEFAULT_TABLE) + " upserts");
    };
  }

  /** dbtable's default; in realTime at least once, the version guard on change_rows. */
  private static Map<String, String> withDefaults(Map<String, String> given, boolean realTime) {
    Map<String, String> options = new LinkedHashMap<>(given);
    if (value(options, LakebaseSinkOptions.DBTABLE.key()) == null) {
      options.put(LakebaseSinkOptions.DBTABLE.key(), DEFAULT_TABLE);
    }
    String guarantee = value(options, LakebaseSinkOptions.DELIVERY_GUARANTEE.key());
    boolean atLeastOnce =
        guarantee == null
            ? realTime
            : guarantee.equalsIgnoreCase(LakebaseSinkOptions.AT_LEAST_ONCE);
    if (atLeastOnce && value(options, LakebaseSinkOptions.VERSION_COLUMN.key()) == null) {
      options.put(LakebaseSinkOptions.VERSION_COLUMN.key(), "change_rows");
    }
    return options;
  }

  private static String value(Map<String, String> options, String key) {
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (option.getKey().equalsIgnoreCase(key)) {
        return option.getValue();
      }
    }
    return null;
  }

  /** The Lakebase table's columns; the key is order_date. */
  static LakebaseSchema schema(ColumnType totalAmountType) {
    return LakebaseSchema.builder()
        .column("order_date", ColumnType.DATE, false)
        .column("orders", ColumnType.LONG, false)
        .column("total_amount", totalAmountType)
        .column("silver_version", ColumnType.LONG, false)
        .column("change_rows", ColumnType.LONG, false)
        .build();
  }

  private static RowFields<DailyTotals> row(LakebaseSchema schema) {
    boolean floating =
        schema.columns().get(schema.indexOf("total_amount")).type().equals(ColumnType.DOUBLE);
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
