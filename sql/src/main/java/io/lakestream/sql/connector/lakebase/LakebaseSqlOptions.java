package io.lakestream.sql.connector.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.LakebaseSinkException;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.connectors.options.OptionsCatalog;

/**
 * The options of a {@code 'connector' = 'lakebase'} (or {@code 'postgresql'}) table in Flink SQL:
 * exactly the Lakebase sink's ({@link LakebaseSinkOptions}: {@code endpoint}, {@code database},
 * {@code dbtable}, {@code upsertkey}, {@code batchsize}, {@code batchinterval}, the credentials and
 * retries; keys ignore case). {@link #CATALOG} checks them when the planner creates the table;
 * every problem is a {@link LakebaseSinkException} of class {@code
 * JDBC_STREAMING_SINK_INVALID_OPTIONS}, as in the DataStream sink. See {@code
 * docs/options/sql-lakebase.md}.
 */
@PublicEvolving
public final class LakebaseSqlOptions {
  /** Every option of a Lakebase table in Flink SQL. */
  public static final OptionsCatalog CATALOG = catalog();

  private LakebaseSqlOptions() {}

  private static OptionsCatalog catalog() {
    OptionsCatalog.Builder builder =
        OptionsCatalog.builder("sql-lakebase", "Lakebase table in Flink SQL")
            .label("Lakebase table")
            .summary(
                "Options of `CREATE TABLE ... WITH ('connector' = 'lakebase', ...)` (or"
                    + " `'postgresql'`, Spark's format name): the Lakebase sink's options (keys"
                    + " ignore case); every option error has the error class"
                    + " `JDBC_STREAMING_SINK_INVALID_OPTIONS`. The table's `PRIMARY KEY (...) NOT"
                    + " ENFORCED`, when declared, is the upsert key (option upsertkey, if also"
                    + " given, must name the same columns); a query that updates or deletes needs"
                    + " a key. Inside the query runtime the query's checkpoint location is used.")
            .options(LakebaseSinkOptions.CATALOG.options())
            .failures(
                problem ->
                    new LakebaseSinkException(
                        LakebaseSinkException.INVALID_OPTIONS, problem.message()));
    LakebaseSinkOptions.CATALOG.passThroughs().forEach(builder::passThrough);
    LakebaseSinkOptions.CATALOG.rules().forEach(builder::rule);
    return builder.build();
  }
}
