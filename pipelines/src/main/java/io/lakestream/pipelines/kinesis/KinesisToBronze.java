package io.lakestream.pipelines.kinesis;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.kinesis.source.KinesisSource;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.types.Row;

/**
 * Pipeline {@code kinesis-to-bronze}: a Kinesis data stream appended, exactly once, to a Delta
 * bronze table under the output, with Databricks' Kinesis columns ({@code partitionKey}, {@code
 * data} as binary, {@code stream}, {@code shardId}, {@code sequenceNumber}, {@code
 * approximateArrivalTimestamp}). The Spark original:
 *
 * <pre>{@code
 * spark.readStream.format("kinesis").option("streamName", "clicks")
 *   .option("region", "us-east-1").option("initialPosition", "trim_horizon").load()
 *   .writeStream.format("delta").option("checkpointLocation", ...)
 *   .trigger(processingTime="30 seconds").toTable("clicks_bronze")
 * }</pre>
 *
 * <p>Options ({@code -o key=value}, declared in {@link #CATALOG}): those of the Kinesis source
 * ({@link KinesisSourceOptions}; {@code streamName} required, {@code initialPosition} defaults to
 * {@code trim_horizon} here, so the table holds the whole stream), {@code table}, and {@code fs.*}
 * Hadoop settings for the table. Each shard's position is in the checkpoint and the table commits
 * with the query's epochs, so a task failure or a restart neither loses nor repeats a record.
 * Default trigger: processingTime 30 s; with availableNow it reads what arrived before the run
 * started and stops.
 */
@Internal
public final class KinesisToBronze implements Pipeline {

  public static final Option<String> TABLE =
      Option.key("table")
          .stringType()
          .noDefaultValue()
          .withDefaultText("<streamName>_bronze, lower case, [a-z0-9_] only")
          .withDescription("The bronze Delta table's directory under the output.");

  /** The bronze table's columns: Databricks' Kinesis columns. */
  public static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("partitionKey", ColumnType.STRING)
          .column("data", ColumnType.BINARY)
          .column("stream", ColumnType.STRING)
          .column("shardId", ColumnType.STRING)
          .column("sequenceNumber", ColumnType.STRING)
          .column("approximateArrivalTimestamp", ColumnType.TIMESTAMP)
          .build();

  /** The source's uid and name. */
  static final String SOURCE = "kinesis-source";

  /** The sink's uid and name. */
  static final String SINK = "kinesis-bronze-sink";

  /** The pipeline's options: the Kinesis source's, the table, Hadoop settings. */
  public static final OptionsCatalog CATALOG = catalog();

  private static OptionsCatalog catalog() {
    List<Option<?>> options = new ArrayList<>(KinesisSourceOptions.ALL);
    options.add(TABLE);
    return OptionsCatalog.builder("kinesis-to-bronze", "Pipeline kinesis-to-bronze")
        .summary(
            "Options of `lakestream run kinesis-to-bronze -o key=value`: the Kinesis source's"
                + " (see kinesis-source; initialPosition defaults to trim_horizon here) and the"
                + " bronze Delta table.")
        .options(options)
        .passThrough(
            PassThrough.prefix("fs.", "Hadoop settings of the table, e.g. fs.s3a.endpoint"))
        .build();
  }

  @Override
  public String name() {
    return "kinesis-to-bronze";
  }

  @Override
  public String description() {
    return "Kinesis stream (-o streamName=..., region=...) -> Delta <stream>_bronze, exactly once";
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
   * The dataflow with {@code tap} applied to the records before the table (tests use it to inject
   * failures).
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option, naming it
   */
  public static Dataflow dataflow(PipelineOptions options, UnaryOperator<DataStream<Row>> tap) {
    OptionValues values = CATALOG.validate(options.sourceOptions());
    Map<String, String> kinesis = new LinkedHashMap<>();
    kinesis.put(KinesisSourceOptions.INITIAL_POSITION.key(), "trim_horizon");
    options
        .sourceOptions()
        .forEach(
            (key, value) -> {
              if (KinesisSourceOptions.ALL.stream().anyMatch(o -> o.key().equalsIgnoreCase(key))) {
                kinesis.put(canonical(key), value);
              }
            });
    KinesisSourceOptions.parse(kinesis); // fails on bad options before the job is built
    String tablePath = options.path(tableName(values));
    Map<String, String> hadoopConf = new LinkedHashMap<>();
    values.passThrough("fs.").forEach((k, v) -> hadoopConf.put("fs." + k, v));
    return (env, query) ->
        tap.apply(
                env.fromSource(
                        KinesisSource.create(SOURCE, kinesis, query),
                        WatermarkStrategy.noWatermarks(),
                        SOURCE)
                    .uid(SOURCE))
            .sinkTo(
                DeltaSinkBuilder.forTable(tablePath, SCHEMA, KinesisToBronze::row)
                    .query(query)
                    .sinkName(SINK)
                    .hadoopConf(hadoopConf)
                    .build())
            .uid(SINK)
            .name("Kinesis bronze Delta table");
  }

  /** The option's declared key for {@code key} (keys ignore case). */
  private static String canonical(String key) {
    return KinesisSourceOptions.ALL.stream()
        .map(Option::key)
        .filter(k -> k.equalsIgnoreCase(key))
        .findFirst()
        .orElseThrow();
  }

  private static String tableName(OptionValues values) {
    if (values.contains(TABLE)) {
      return values.get(TABLE);
    }
    String stream = values.get(KinesisSourceOptions.STREAM_NAME);
    return stream.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_bronze";
  }

  private static Object[] row(Row record) {
    Object[] row = new Object[KinesisRecord.COLUMNS.length];
    for (int i = 0; i < row.length; i++) {
      row[i] = record.getField(i); // the bronze columns are the record's, in order
    }
    return row;
  }
}
