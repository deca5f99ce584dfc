package io.lakestream.sql.connector.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
import io.lakestream.state.Locations;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

/**
 * {@code 'connector' = 'delta'}: a Delta table as a Flink SQL source and sink, on the DataStream
 * connector ({@link io.lakestream.connectors.delta.source.DeltaSourceBuilder}, {@link
 * io.lakestream.connectors.delta.sink.DeltaSinkBuilder}), so SQL queries get the same guarantees:
 * exactly-once epoch commits tagged {@code txn(appId, epoch)}, availableNow and rate limits.
 *
 * <p>Options are checked against {@link DeltaSqlOptions#CATALOG} (keys ignore case) when the
 * planner creates the table: an unknown key fails the statement naming the closest valid one, a bad
 * value names the option. The declared columns are checked against the stored table's (a source) or
 * become the created table's (a sink) before any job runs.
 */
@PublicEvolving
public final class DeltaTableFactory extends CatalogCheckedTableFactory
    implements DynamicTableSourceFactory, DynamicTableSinkFactory {
  /** The connector's name in {@code WITH ('connector' = 'delta')}. */
  public static final String IDENTIFIER = "delta";

  private final Map<String, String> hadoopDefaults;

  /** The factory Flink's SPI finds. */
  public DeltaTableFactory() {
    this(Map.of());
  }

  private DeltaTableFactory(Map<String, String> hadoopDefaults) {
    this.hadoopDefaults = Map.copyOf(hadoopDefaults);
  }

  /**
   * A factory whose tables use these Hadoop settings where their own {@code hadoop.*} options do
   * not set them: a catalog's (credentials stay out of the tables' options).
   */
  public static DeltaTableFactory withHadoopDefaults(Map<String, String> hadoopDefaults) {
    return new DeltaTableFactory(hadoopDefaults);
  }

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    DeltaTableSettings settings = settings(context);
    if (settings.readsChangeFeed() && settings.changeRange() != null) {
      return new DeltaChangeRangeTableSource(
          settings,
          QueryContextConfig.find(context.getConfiguration()).orElse(null),
          context.getPhysicalRowDataType());
    }
    if (settings.readsChangeFeed()) {
      return new DeltaChangeFeedTableSource(
          settings,
          QueryContextConfig.find(context.getConfiguration()).orElse(null),
          context.getPhysicalRowDataType());
    }
    boolean batch =
        context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
    return new DeltaTableSource(
        settings,
        QueryContextConfig.find(context.getConfiguration()).orElse(null),
        context.getPhysicalRowDataType(),
        batch);
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    DeltaTableSettings settings = settings(context);
    return new DeltaTableSink(
        settings,
        QueryContextConfig.read(context.getConfiguration(), settings.name()),
        context.getCatalogTable().getResolvedSchema(),
        context.getCatalogTable().getPartitionKeys());
  }

  private DeltaTableSettings settings(Context context) {
    TableOptions options = options(context, DeltaSqlOptions.CATALOG);
    String path =
        options.required(
            DeltaSqlOptions.PATH,
            "add 'path' = '<table location>' to its WITH clause, or create the table in a Delta"
                + " catalog");
    return DeltaTableSettings.of( // a relative path is the client's, not a task manager's
        options.table(),
        Locations.absolute(path),
        options.given(),
        options.values(),
        hadoopDefaults);
  }
}
