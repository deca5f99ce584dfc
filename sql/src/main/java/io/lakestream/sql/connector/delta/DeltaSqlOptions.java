package io.lakestream.sql.connector.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceOptions;
import io.lakestream.connectors.delta.sink.DeltaSinkOptions;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a {@code 'connector' = 'delta'} table in Flink SQL: the table's {@code path}, the
 * Delta source's and sink's options under their Spark names (a source reads the first, a sink the
 * second; keys ignore case), Hadoop settings for the table's file system ({@code hadoop.*}) and the
 * table properties a sink sets when it creates the table ({@code delta.*}). {@link #CATALOG} checks
 * them when the planner creates the table, so an unknown or mistyped option fails the statement,
 * listing the valid ones; see {@code docs/options/sql-delta.md}.
 */
@PublicEvolving
public final class DeltaSqlOptions {
  /** The table's location. */
  public static final Option<String> PATH =
      Option.key("path")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Delta table's location: a local path or a URI such as s3a://bucket/lake/orders."
                  + " Required (a table of a Delta catalog has it from the catalog).");

  /** The Hadoop settings' prefix. */
  public static final String HADOOP_PREFIX = "hadoop.";

  /** The table properties' prefix. */
  public static final String DELTA_PROPERTY_PREFIX = "delta.";

  /** Every option of a Delta table in Flink SQL. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("sql-delta", "Delta table in Flink SQL")
          .label("Delta table")
          .summary(
              "Options of `CREATE TABLE ... WITH ('connector' = 'delta', ...)`: the Delta"
                  + " source's options when the table is read, the Delta sink's when it is"
                  + " written, under Spark's names (keys ignore case). A read takes only the"
                  + " columns the query uses and skips the data files the query's filters cannot"
                  + " match (comparisons of a column with a literal, IN, IS [NOT] NULL, AND, OR),"
                  + " by partition values and file statistics.")
          .options(all())
          .passThrough(
              PassThrough.prefix(
                  HADOOP_PREFIX,
                  "Hadoop settings of the table's file system, without the prefix, e.g."
                      + " hadoop.fs.s3a.endpoint"))
          .passThrough(
              PassThrough.prefix(
                  DELTA_PROPERTY_PREFIX,
                  "table properties set when the sink creates the table, e.g."
                      + " delta.enableChangeDataFeed = true"))
          .build();

  private DeltaSqlOptions() {}

  /** Every option, in the reference's order. */
  public static List<Option<?>> all() {
    List<Option<?>> all = new ArrayList<>();
    all.add(PATH);
    all.addAll(DeltaSourceOptions.all());
    all.add(DeltaCdfSourceOptions.READ_CHANGE_FEED);
    all.addAll(DeltaSinkOptions.ALL);
    return List.copyOf(all);
  }
}
