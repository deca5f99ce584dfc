package io.lakestream.sql.connector.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
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
    TableOptions options = options(context, LakebaseSqlOptions.CATALOG);
    return LakebaseTableSink.create(
        options,
        context.getCatalogTable().getResolvedSchema(),
        QueryContextConfig.find(context.getConfiguration()).orElse(null));
  }
}
