package io.lakestream.pipelines.jdbc;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.jdbc.JdbcSourceOptions;
import io.lakestream.connectors.jdbc.source.JdbcSource;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Pipeline {@code jdbc-to-delta}: the seeds' JDBC pull (002 §6.3), a bounded read of a database
 * table or query over JDBC, appended into a Delta table under the output, idempotently: each
 * partition of the read is one Delta version with the txn {@code (<txnAppId>-p<i>of<n>,
 * txnVersion)}, so a restore after a failure, or a rerun of the same run (same {@code txnAppId} and
 * {@code txnVersion}, even from a new checkpoint), never adds a row twice. The Spark original:
 *
 * <pre>{@code
 * spark.read.format("jdbc").option("url", ...).option("dbtable", "orders")
 *   .option("user", dbutils.secrets.get("jdbc", "username"))
 *   .option("password", dbutils.secrets.get("jdbc", "password"))
 *   .option("partitionColumn", "id").option("lowerBound", 0).option("upperBound", 1000000)
 *   .option("numPartitions", 8).load()
 *   .write.format("delta").option("txnAppId", "orders-pull").option("txnVersion", 1)
 *   .mode("append").saveAsTable("orders")
 * }</pre>
 *
 * <p>Options ({@code -o key=value}, declared in {@link #CATALOG}): those of the JDBC source ({@link
 * JdbcSourceOptions}), {@code table}, {@code txnAppId}, {@code txnVersion}, and {@code fs.*} Hadoop
 * settings for the table. Runs with the availableNow trigger by default: the query stops once every
 * partition is in the table. The table's columns are the read's; it is created when missing, and
 * refused (DELTA_SCHEMA_MISMATCH) when it exists with other columns.
 */
@Internal
public final class JdbcToDelta implements Pipeline {

  public static final Option<String> TABLE =
      Option.key("table")
          .stringType()
          .noDefaultValue()
          .withDefaultText("the dbtable option's name, lower case, [a-z0-9_] only")
          .withDescription(
              "The Delta table's directory under the output; required with option query.");

  public static final Option<String> TXN_APP_ID =
      Option.key("txnAppId")
          .stringType()
          .noDefaultValue()
          .withDefaultText("the query's app id (stable for its checkpoint location)")
          .withDescription(
              "The Delta txn app id of the run, as Delta's writer option: partition i of n"
                  + " commits with app id <txnAppId>-p<i>of<n>, and is skipped when the table"
                  + " already holds that app id at txnVersion or later. Set it to rerun a pull"
                  + " from a new checkpoint without duplicates.");

  public static final Option<Long> TXN_VERSION =
      Option.key("txnVersion")
          .longType()
          .defaultValue(0L)
          .notNegative()
          .withDescription(
              "The Delta txn version of the run: raise it (e.g. to the day's number) to append"
                  + " a new pull under the same txnAppId; a run with a version the table already"
                  + " holds for a partition skips that partition.");

  /** Rows of one partition buffered before a Parquet file is written. */
  static final long FLUSH_BYTES = 64L << 20;

  /** The source's uid and name. */
  static final String SOURCE = "jdbc-source";

  /** The sink's uid. */
  static final String SINK = "jdbc-delta-sink";

  /** The pipeline's options: the JDBC source's, the table and the txn, Hadoop settings. */
  public static final OptionsCatalog CATALOG = catalog();

  private static OptionsCatalog catalog() {
    List<Option<?>> options = new ArrayList<>(JdbcSourceOptions.ALL);
    options.addAll(List.of(TABLE, TXN_APP_ID, TXN_VERSION));
    return OptionsCatalog.builder("jdbc-to-delta", "Pipeline jdbc-to-delta")
        .summary(
            "Options of `lakestream run jdbc-to-delta -o key=value`: the JDBC source's (see"
                + " jdbc-source), the Delta table and the txn that makes the appends"
                + " idempotent.")
        .options(options)
        .passThrough(
            PassThrough.prefix("fs.", "Hadoop settings of the table, e.g. fs.s3a.endpoint"))
        .build();
  }

  @Override
  public String name() {
    return "jdbc-to-delta";
  }

  @Override
  public String description() {
    return "JDBC pull (-o url=..., dbtable=..., partitionColumn=...) -> Delta, idempotent appends"
        + " per partition";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    OptionValues values = CATALOG.validate(options.sourceOptions());
    Map<String, String> jdbc = new LinkedHashMap<>();
    for (Option<?> option : JdbcSourceOptions.ALL) {
      values.getOptional(option).ifPresent(v -> jdbc.put(option.key(), v.toString()));
    }
    JdbcSourceOptions.parse(jdbc); // fails on bad options before the job is built
    String tableName = tableName(values);
    Map<String, String> hadoopConf = new LinkedHashMap<>();
    values.passThrough("fs.").forEach((k, v) -> hadoopConf.put("fs." + k, v));
    String tablePath = options.path(tableName);
    long txnVersion = values.get(TXN_VERSION);
    String txnAppId = values.getOptional(TXN_APP_ID).orElse(null);
    return (env, query) -> {
      JdbcSource source = JdbcSource.create(SOURCE, jdbc, query);
      DeltaTableSchema schema = DeltaTableSchema.builder().columns(source.schema()).build();
      DeltaTable table = DeltaTable.forPath(tablePath, hadoopConf);
      table.ensureExists(schema);
      String appId = txnAppId != null ? txnAppId : query.appId();
      env.fromSource(source, WatermarkStrategy.noWatermarks(), SOURCE)
          .uid(SOURCE)
          .sinkTo(new PartitionCommitSink(table, schema, appId, txnVersion, FLUSH_BYTES))
          .uid(SINK)
          .name(tableName + " Delta table (a version per partition)");
    };
  }

  private static String tableName(OptionValues values) {
    if (values.contains(TABLE)) {
      return values.get(TABLE);
    }
    if (!values.contains(JdbcSourceOptions.DBTABLE)) {
      throw CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          TABLE.key(),
          "needs option table (the Delta table's name) when reading option query");
    }
    String dbtable = values.get(JdbcSourceOptions.DBTABLE);
    String last = dbtable.substring(dbtable.lastIndexOf('.') + 1);
    return last.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }
}
