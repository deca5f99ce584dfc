package io.lakestream.sql.connector.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

/**
 * {@code 'connector' = 'lakebase'}: a PostgreSQL (Lakebase) table as a Flink SQL sink, on the
 * DataStream Lakebase sink ({@link io.lakestream.connectors.lakebase.LakebaseSinkBuilder}): the
 * same options ({@link LakebaseSqlOptions}), batching, retries and table checks. {@code 'connector'
 * = 'postgresql'} ({@link PostgresqlTableFactory}) is the same sink.
 *
 * <p>The key: the table's {@code PRIMARY KEY (...) NOT ENFORCED}, else option {@code upsertkey},
 * else the existing PostgreSQL table's primary key. When given twice the keys must name the same
 * columns, and the key must equal the PostgreSQL table's primary key; a missing table is created
 * with the declared columns and the key. With a key the sink takes a changelog: inserts and updates
 * upsert, deletes delete by key, the rows of one key go to one writer. Without any key it inserts,
 * and a query that produces updates or deletes is refused ({@code
 * SQL_UPDATES_INTO_APPEND_ONLY_TABLE}). Declare the key in the DDL where you can: only then does
 * Flink's planner know it, and reconcile a query whose own key differs (a key from option upsertkey
 * or the PostgreSQL table is applied as given).
 *
 * <p>Checked when the planner creates the table, before any job runs, each failure naming what to
 * change: options (unknown, wrong type, missing), the keys, the output mode (complete is refused),
 * the column types (a type the sink does not write is refused naming the column) and the PostgreSQL
 * table. The sink runs inside the query runtime (its checkpoint location, output mode and realTime
 * trigger) or in a plain TableEnvironment with option {@code checkpointLocation}. Passwords never
 * appear in messages.
 */
@PublicEvolving
public class LakebaseTableFactory extends CatalogCheckedTableFactory
    implements DynamicTableSinkFactory {
  /** The connector's name in {@code WITH ('connector' = 'lakebase')}. */
  public static final String IDENTIFIER = "lakebase";

  /** The same connector under Spark's format name: {@code WITH ('connector' = 'postgresql')}. */
  public static final String ALIAS = "postgresql";

  /**
   * The query setting (SQL {@code SET}) that gives tables without the option tasksPerConnection.
   */
  public static final String TASKS_PER_CONNECTION_SETTING =
      "spark.databricks.sql.streaming.jdbc.tasksPerConnection";

  private final String identifier;

  /** The factory Flink's SPI finds. */
  public LakebaseTableFactory() {
    this(IDENTIFIER);
  }

  LakebaseTableFactory(String identifier) {
    this.identifier = identifier;
  }

  @Override
  public final String factoryIdentifier() {
    return identifier;
  }

  @Override
  public final DynamicTableSink createDynamicTableSink(Context context) {
    TableOptions options =
        withQuerySettings(options(context, LakebaseSqlOptions.CATALOG), context.getConfiguration());
    return LakebaseTableSink.create(
        options,
        context.getCatalogTable().getResolvedSchema(),
        QueryContextConfig.find(context.getConfiguration()).orElse(null));
  }

  /**
   * The table's options and, where the table sets no {@code tasksPerConnection}, the query's {@code
   * SET 'spark.databricks.sql.streaming.jdbc.tasksPerConnection' = 'N'} (the seeds' Spark conf).
   */
  static TableOptions withQuerySettings(TableOptions options, ReadableConfig session) {
    Optional<String> setting =
        session.getOptional(
            ConfigOptions.key(TASKS_PER_CONNECTION_SETTING).stringType().noDefaultValue());
    boolean inTable =
        options.given().keySet().stream()
            .anyMatch(
                key ->
                    LakebaseSinkOptions.CATALOG
                        .find(key)
                        .filter(LakebaseSinkOptions.TASKS_PER_CONNECTION::equals)
                        .isPresent());
    if (setting.isEmpty() || inTable) {
      return options;
    }
    Map<String, String> given = new LinkedHashMap<>(options.given());
    given.put(LakebaseSinkOptions.TASKS_PER_CONNECTION.key(), setting.get());
    return new TableOptions(options.table(), given, options.values(), options.catalog());
  }
}
