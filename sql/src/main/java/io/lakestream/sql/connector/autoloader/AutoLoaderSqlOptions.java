package io.lakestream.sql.connector.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a {@code 'connector' = 'cloudFiles'} table in Flink SQL: the input directory
 * ({@link #PATH}), every Auto Loader option under its Databricks name ({@code cloudFiles.format},
 * {@code cloudFiles.schemaLocation}, {@code cloudFiles.maxFilesPerTrigger}, notifications,
 * cleanSource; keys ignore case) and Hadoop settings of the input's file system ({@code hadoop.*}).
 * {@link #CATALOG} checks them when the planner creates the table; see {@code
 * docs/options/sql-cloudfiles.md}.
 */
@PublicEvolving
public final class AutoLoaderSqlOptions {
  /** The directory the files arrive in. */
  public static final Option<String> PATH =
      Option.key("path")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The directory the files arrive in, as given to .load(path) in Databricks: a local"
                  + " path or a URI such as s3a://landing/orders. Required.");

  /** Hadoop settings of the input's file system. */
  public static final String HADOOP_PREFIX = "hadoop.";

  /** Every option of an Auto Loader table in Flink SQL. */
  public static final OptionsCatalog CATALOG = catalog();

  private AutoLoaderSqlOptions() {}

  private static OptionsCatalog catalog() {
    OptionsCatalog loader = AutoLoaderOptions.CATALOG;
    List<Option<?>> all = new ArrayList<>();
    all.add(PATH);
    all.addAll(loader.options());
    OptionsCatalog.Builder builder =
        OptionsCatalog.builder("sql-cloudfiles", "Auto Loader table in Flink SQL (cloudFiles)")
            .label("Auto Loader table")
            .summary(
                "Options of `CREATE TABLE ... WITH ('connector' = 'cloudFiles', ...)`: the input"
                    + " directory and Auto Loader's options under their Databricks names (keys"
                    + " ignore case). Without `cloudFiles.schemaLocation` the table's columns are"
                    + " the schema; with it the schema is inferred and kept there, and the table's"
                    + " columns pick from it by name.")
            .options(all)
            .passThrough(
                PassThrough.prefix(
                    HADOOP_PREFIX,
                    "Hadoop settings of the input's file system, e.g. hadoop.fs.s3a.endpoint"));
    loader.passThroughs().forEach(builder::passThrough);
    loader.rules().forEach(builder::rule);
    return builder.build();
  }
}
