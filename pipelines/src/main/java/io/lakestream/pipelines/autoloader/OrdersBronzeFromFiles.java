package io.lakestream.pipelines.autoloader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.Dataflow;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Pipeline E1, {@code bronze-files}: JSON files landing under a path (local or {@code s3a://}) ->
 * Auto Loader ({@code cloudFiles.*}, schema inferred and kept in {@code cloudFiles.schemaLocation},
 * new columns added with {@code addNewColumns}) -> the exactly-once Delta table {@code
 * orders_bronze_files} written with {@code mergeSchema=true}, so a column the Auto Loader schema
 * gains is added to the table.
 *
 * <p>The Spark original (seed E1), in the three trigger shapes of {@code lakestream run
 * bronze-files --trigger ...}: default (as often as possible, Spark's processingTime 0), {@code
 * processingTime=10s}, {@code availableNow}:
 *
 * <pre>{@code
 * spark.readStream.format("cloudFiles").option("cloudFiles.format", "json")
 *   .option("cloudFiles.schemaLocation", ...).load("s3://landing/orders")
 *   .writeStream.format("delta").option("mergeSchema", "true")
 *   .option("checkpointLocation", ...).trigger(...).toTable("orders_bronze")
 * }</pre>
 *
 * <p>Options ({@code -o key=value}): {@code path} (required, the landing path), any {@code
 * cloudFiles.*} option ({@code cloudFiles.format} defaults to {@code json}, {@code
 * cloudFiles.schemaLocation} to {@code <output>/_schemas/orders_bronze_files}), {@code fs.s3a.*}
 * Hadoop settings for the landing path, schema location and table, and {@code mergeSchema} (default
 * true). Anything else fails before the job starts, listing the valid keys. When the landing path
 * holds a file with a new column, the query stops with the Auto Loader's {@code
 * UnknownFieldException} after recording the new schema; the restarted query reads the files with
 * it and the table gains the column.
 */
@Internal
public final class OrdersBronzeFromFiles implements Pipeline {

  /** The Delta table's directory under the output. */
  public static final String TABLE = "orders_bronze_files";

  /** Source option: the landing path the files arrive under. */
  public static final String PATH = "path";

  /** Sink option: Spark's {@code mergeSchema}; default true here. */
  public static final String MERGE_SCHEMA = "mergeSchema";

  /** The Auto Loader stream's name (the source's uid). */
  static final String STREAM = "orders-files";

  @Override
  public String name() {
    return "bronze-files";
  }

  @Override
  public String description() {
    return "Auto Loader JSON files (-o path=..., cloudFiles.*) -> Delta orders_bronze_files with"
        + " mergeSchema (E1)";
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    Map<String, String> loaderOptions = new LinkedHashMap<>();
    loaderOptions.put("cloudFiles.format", "json");
    loaderOptions.put("cloudFiles.schemaLocation", options.path("_schemas/" + TABLE));
    Map<String, String> hadoopConf = new LinkedHashMap<>();
    String path = null;
    boolean mergeSchema = true;
    for (Map.Entry<String, String> e : options.sourceOptions().entrySet()) {
      String key = e.getKey();
      if (key.equalsIgnoreCase(PATH)) {
        path = e.getValue();
      } else if (key.equalsIgnoreCase(MERGE_SCHEMA)) {
        mergeSchema = parseBoolean(e.getValue());
      } else if (key.regionMatches(true, 0, "cloudFiles.", 0, "cloudFiles.".length())
          || AutoLoaderOptions.CATALOG.find(key).isPresent()) { // also ignoreCorruptFiles
        loaderOptions.keySet().removeIf(key::equalsIgnoreCase); // keys ignore case
        loaderOptions.put(key, e.getValue());
      } else if (key.startsWith("fs.")) {
        hadoopConf.put(key, e.getValue());
      } else {
        throw new LakestreamException(
            PipelineErrorClass.PIPELINE_INVALID_OPTION,
            "pipeline bronze-files: unknown option '"
                + key
                + "'; valid: path, mergeSchema, cloudFiles.* and ignoreCorruptFiles (Auto Loader),"
                + " fs.* (Hadoop, e.g."
                + " fs.s3a.endpoint)");
      }
    }
    if (path == null || path.isBlank()) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_OPTION,
          "pipeline bronze-files reads files: give the landing path with -o path=<dir or"
              + " s3a://bucket/prefix>");
    }
    // Fail before the job starts on a bad option, naming it.
    AutoLoaderBuilder.forPath(path).name(STREAM).options(loaderOptions).sanityCheck();
    String landing = path;
    String table = options.path(TABLE);
    boolean merge = mergeSchema;
    return (env, query) -> {
      AutoLoader loader =
          AutoLoaderBuilder.forPath(landing)
              .name(STREAM)
              .options(loaderOptions)
              .hadoopConf(hadoopConf)
              .query(query)
              .build();
      BronzeTableLayout layout;
      try {
        layout = BronzeTableLayout.of(loader.schema(), table, hadoopConf);
      } catch (DeltaTableException e) {
        throw new LakestreamException(
            PipelineErrorClass.PIPELINE_INVALID_INPUT,
            "pipeline bronze-files could not read the schema of " + table + ": " + e.getMessage(),
            e);
      }
      loader.stream(env)
          .sinkTo(
              DeltaSinkBuilder.forTable(table, layout.schema(), layout::toDeltaRow)
                  .hadoopConf(hadoopConf)
                  .mergeSchema(merge)
                  .query(query)
                  .sinkName("bronze-files-sink")
                  .build())
          .uid("bronze-files-sink")
          .name(TABLE + " Delta table");
    };
  }

  private static boolean parseBoolean(String value) {
    String v = value.trim().toLowerCase(java.util.Locale.ROOT);
    if (!new TreeSet<>(java.util.List.of("true", "false")).contains(v)) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_OPTION,
          "pipeline bronze-files: option mergeSchema must be true or false, was '" + value + "'");
    }
    return Boolean.parseBoolean(v);
  }
}
