package io.lakestream.sql.catalog;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;

/**
 * The options of {@code CREATE CATALOG lake WITH ('type' = 'delta', ...)}; {@link #CATALOG} checks
 * them (keys ignore case); see {@code docs/options/sql-delta-catalog.md}.
 */
@PublicEvolving
public final class DeltaCatalogOptions {
  /** Where the databases are. */
  public static final Option<String> WAREHOUSE =
      Option.key("warehouse")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The catalog's root: a local path or a URI such as s3a://bucket/lake. Each database"
                  + " is a directory below it, each table a Delta table in its database's"
                  + " directory. Required.");

  /** The database used when a statement names none. */
  public static final Option<String> DEFAULT_DATABASE =
      Option.key("default-database")
          .stringType()
          .defaultValue("default")
          .withDescription(
              "The database of tables a statement names without one (created if missing).");

  /** Every option of the Delta catalog. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("sql-delta-catalog", "Delta catalog in Flink SQL")
          .label("Delta catalog")
          .summary(
              "Options of `CREATE CATALOG ... WITH ('type' = 'delta', ...)`: databases are"
                  + " directories, tables are the Delta tables in them.")
          .options(WAREHOUSE, DEFAULT_DATABASE)
          .passThrough(
              PassThrough.prefix(
                  "hadoop.",
                  "Hadoop settings of the warehouse's file system, without the prefix, e.g."
                      + " hadoop.fs.s3a.endpoint; the catalog's tables use them too"))
          .build();

  private DeltaCatalogOptions() {}
}
