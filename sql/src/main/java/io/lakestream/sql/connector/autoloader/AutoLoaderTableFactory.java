package io.lakestream.sql.connector.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.connector.CatalogCheckedTableFactory;
import io.lakestream.sql.connector.TableOptions;
import io.lakestream.state.Locations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'cloudFiles'}: Auto Loader as a Flink SQL source, each file under {@code
 * path} read once per query (the DataStream {@link AutoLoaderBuilder} underneath: same options,
 * same state, same uids).
 *
 * <p>The schema: without {@code cloudFiles.schemaLocation} the table's columns are the schema (the
 * columns named in {@code cloudFiles.partitionColumns} come from {@code name=value} directories;
 * declaring {@code _rescued_data STRING} turns on {@code schemaEvolutionMode = rescue}). With it
 * the schema is inferred from the files and kept there, evolving as Databricks' does, and the
 * table's columns pick from it by name (exact, then ignoring case), each of the inferred type. When
 * the schema keeps rescued data the table must declare {@code _rescued_data}, so nothing a record
 * does not fit is dropped. The file columns are {@code METADATA} columns: {@code
 * '_metadata.file_path'}, {@code '_metadata.file_name'}, {@code '_metadata.file_size'}, {@code
 * '_metadata.file_modification_time'}.
 *
 * <p>Options, columns and types are checked, and the schema inferred, when the planner creates the
 * table, before any job runs; each failure names the option or column to change.
 */
@PublicEvolving
public final class AutoLoaderTableFactory extends CatalogCheckedTableFactory
    implements DynamicTableSourceFactory {
  /** The connector's name in {@code WITH ('connector' = 'cloudFiles')}, Databricks' format name. */
  public static final String IDENTIFIER = "cloudFiles";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    TableOptions options = options(context, AutoLoaderSqlOptions.CATALOG);
    String path =
        options.required(
            AutoLoaderSqlOptions.PATH,
            "add 'path' = '<directory the files arrive in>' to its WITH clause");
    RowType row = (RowType) context.getPhysicalRowDataType().getLogicalType();
    Map<String, String> loaderOptions = loaderOptions(options.given());
    Optional<String> schemaLocation =
        options.values().getOptional(AutoLoaderOptions.SCHEMA_LOCATION);
    AutoLoaderBuilder builder =
        AutoLoaderBuilder.forPath(Locations.absolute(path)) // the client's, not a task manager's
            .name(options.table())
            .hadoopConf(options.values().passThrough(AutoLoaderSqlOptions.HADOOP_PREFIX))
            .query(QueryContextConfig.find(context.getConfiguration()).orElse(null));
    if (schemaLocation.isEmpty()) {
      List<String> partitions =
          options
              .values()
              .getOptional(AutoLoaderOptions.PARTITION_COLUMNS)
              .map(AutoLoaderOptions::partitionColumns)
              .orElse(List.of());
      builder.schema(FileTableColumns.givenSchema(row, partitions, options.table()));
      if (FileTableColumns.declaresRescuedData(row)
          && options.values().getOptional(AutoLoaderOptions.SCHEMA_EVOLUTION_MODE).isEmpty()) {
        loaderOptions.put(AutoLoaderOptions.SCHEMA_EVOLUTION_MODE.key(), "rescue");
      }
    }
    AutoLoader loader = builder.options(loaderOptions).build();
    int[] positions =
        FileTableColumns.positions(
            row,
            loader,
            options.table(),
            schemaLocation.map(l -> "kept in " + l).orElse("the table's columns"));
    return new AutoLoaderTableSource(loader, positions, context.getPhysicalRowDataType());
  }

  /** The Auto Loader's options: all but {@code path} and the Hadoop settings. */
  private static Map<String, String> loaderOptions(Map<String, String> given) {
    Map<String, String> options = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          String lower = key.toLowerCase(Locale.ROOT);
          if (!lower.equals(AutoLoaderSqlOptions.PATH.key())
              && !lower.startsWith(AutoLoaderSqlOptions.HADOOP_PREFIX)) {
            options.put(key, value);
          }
        });
    return options;
  }
}
