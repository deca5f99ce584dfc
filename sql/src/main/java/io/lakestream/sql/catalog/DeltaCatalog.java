package io.lakestream.sql.catalog;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTypes;
import io.lakestream.connectors.schema.Column;
import io.lakestream.sql.connector.delta.DeltaSqlOptions;
import io.lakestream.sql.connector.delta.DeltaTableFactory;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.state.Locations;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A catalog of Delta tables under one directory (the warehouse), as Spark's path-based tables: a
 * database is a directory {@code <warehouse>/<database>}, a table the Delta table in {@code
 * <warehouse>/<database>/<table>}. What Flink shows of a table comes from its Delta log: columns,
 * partitioning, table properties, and the primary key, which lakestream keeps as the table property
 * {@value #PRIMARY_KEY_PROPERTY}. Tables Spark or Databricks wrote there appear as they are.
 *
 * <ul>
 *   <li>{@code CREATE TABLE} creates the Delta table (version 0) from the declared columns, {@code
 *       PARTITIONED BY} and {@code delta.*} options as table properties; other options are refused
 *       (they belong to a read or write: give them as {@code /*+ OPTIONS(...) *}{@code /} hints);
 *   <li>{@code ALTER TABLE ... ADD} adds nullable columns (Delta's schema evolution);
 *   <li>{@code DROP TABLE} keeps the data: the table's directory moves to {@code
 *       <database>/_dropped/<table>-<millis>}, outside the catalog, from where it can be moved back
 *       or deleted;
 *   <li>{@code FOR SYSTEM_TIME AS OF} reads the version current at that instant.
 * </ul>
 *
 * <p>Names starting with {@code _} or {@code .} are not databases or tables (checkpoint locations
 * and dropped tables live there). Failures of the file system are {@link CatalogException}s naming
 * the path. The catalog's Hadoop settings (which may hold credentials) reach its tables through
 * {@link #getFactory()}, never through table options, which {@code SHOW CREATE TABLE} prints.
 */
@PublicEvolving
public final class DeltaCatalog extends TableOnlyCatalog {
  /** The table property holding the primary key's columns, comma-separated. */
  public static final String PRIMARY_KEY_PROPERTY = "lakestream.primaryKey";

  private static final String DROPPED = "_dropped";

  private final String warehouse;
  private final Map<String, String> hadoopConf;
  private FileSystem fs;

  /**
   * @param warehouse the root directory or URI
   * @param hadoopConf Hadoop settings of its file system, also given to its tables
   */
  public DeltaCatalog(
      String name, String defaultDatabase, String warehouse, Map<String, String> hadoopConf) {
    super(name, defaultDatabase);
    this.warehouse = Locations.absolute(warehouse).replaceAll("/+$", "");
    this.hadoopConf = Map.copyOf(hadoopConf);
  }

  /** The table factory of the catalog's tables: theirs, with the catalog's Hadoop settings. */
  @Override
  public Optional<Factory> getFactory() {
    return Optional.of(DeltaTableFactory.withHadoopDefaults(hadoopConf));
  }

  @Override
  public void open() {
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    try {
      fs = new Path(warehouse).getFileSystem(conf);
      fs.mkdirs(databaseDir(getDefaultDatabase()));
    } catch (IOException e) {
      throw failure("open the warehouse " + warehouse, e);
    }
  }

  @Override
  public void close() {}

  private Path databaseDir(String database) {
    return new Path(warehouse + "/" + database);
  }

  private Path tableDir(ObjectPath table) {
    return new Path(databaseDir(table.getDatabaseName()), table.getObjectName());
  }

  private CatalogException failure(String what, IOException e) {
    return new CatalogException(
        "Catalog '" + getName() + "' could not " + what + ": " + e.getMessage(), e);
  }

  private static boolean visible(Path path) {
    String name = path.getName();
    return !name.startsWith("_") && !name.startsWith(".");
  }

  private List<String> directories(Path parent, boolean deltaTables) {
    List<String> names = new ArrayList<>();
    try {
      for (FileStatus status : fs.listStatus(parent)) {
        if (status.isDirectory()
            && visible(status.getPath())
            && (!deltaTables || fs.exists(new Path(status.getPath(), "_delta_log")))) {
          names.add(status.getPath().getName());
        }
      }
    } catch (IOException e) {
      throw failure("list " + parent, e);
    }
    names.sort(String::compareTo);
    return names;
  }

  @Override
  public List<String> listDatabases() {
    return directories(new Path(warehouse), false);
  }

  @Override
  public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return new CatalogDatabaseImpl(Map.of(), "Delta tables in " + databaseDir(databaseName));
  }

  @Override
  public boolean databaseExists(String databaseName) {
    try {
      return visible(databaseDir(databaseName)) && fs.isDirectory(databaseDir(databaseName));
    } catch (IOException e) {
      throw failure("read " + databaseDir(databaseName), e);
    }
  }

  @Override
  public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
      throws DatabaseAlreadyExistException {
    if (databaseExists(name)) {
      if (ignoreIfExists) {
        return;
      }
      throw new DatabaseAlreadyExistException(getName(), name);
    }
    try {
      fs.mkdirs(databaseDir(name));
    } catch (IOException e) {
      throw failure("create " + databaseDir(name), e);
    }
  }

  @Override
  public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
      throws DatabaseNotExistException, DatabaseNotEmptyException {
    if (!databaseExists(name)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new DatabaseNotExistException(getName(), name);
    }
    try {
      if (fs.listStatus(databaseDir(name)).length > 0) {
        // also with CASCADE: the catalog never deletes table data; dropped tables are kept too
        throw new DatabaseNotEmptyException(getName(), name);
      }
      fs.delete(databaseDir(name), false);
    } catch (IOException e) {
      throw failure("drop " + databaseDir(name), e);
    }
  }

  @Override
  public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
    throw new CatalogException(
        "Catalog '" + getName() + "' keeps no database properties: a database is a directory.");
  }

  @Override
  public List<String> listTables(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return directories(databaseDir(databaseName), true);
  }

  @Override
  public boolean tableExists(ObjectPath tablePath) {
    try {
      return visible(tableDir(tablePath))
          && fs.exists(new Path(tableDir(tablePath), "_delta_log"))
          && table(tablePath).latestSnapshot().isPresent();
    } catch (IOException e) {
      throw failure("read " + tableDir(tablePath), e);
    }
  }

  /**
   * Where the table {@code tablePath} lives or would live: {@code <warehouse>/<database>/<table>},
   * whether or not it exists.
   */
  public String tableLocation(ObjectPath tablePath) {
    return tableDir(tablePath).toString();
  }

  private DeltaTable table(ObjectPath tablePath) {
    return DeltaTable.forPath(tableDir(tablePath).toString(), hadoopConf);
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
    return catalogTable(tablePath, Map.of());
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath tablePath, long timestamp)
      throws TableNotExistException {
    return catalogTable(
        tablePath, Map.of("timestampAsOf", Instant.ofEpochMilli(timestamp).toString()));
  }

  private CatalogTable catalogTable(ObjectPath tablePath, Map<String, String> readOptions)
      throws TableNotExistException {
    if (!tableExists(tablePath)) {
      throw new TableNotExistException(getName(), tablePath);
    }
    DeltaTable table = table(tablePath);
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    Map<String, String> properties = snapshot.getTableProperties();
    Schema.Builder schema = Schema.newBuilder();
    for (Column column : DeltaTypes.fromKernel(snapshot.getSchema()).columns()) {
      schema.column(column.name(), FlinkTypes.toFlink(column));
    }
    String key = properties.get(PRIMARY_KEY_PROPERTY);
    if (key != null && !key.isBlank()) {
      schema.primaryKey(Arrays.asList(key.split(",")));
    }
    Map<String, String> options = new LinkedHashMap<>();
    options.put(FactoryUtil.CONNECTOR.key(), DeltaTableFactory.IDENTIFIER);
    options.put(DeltaSqlOptions.PATH.key(), table.path());
    properties.forEach(
        (k, v) -> {
          if (k.startsWith(DeltaSqlOptions.DELTA_PROPERTY_PREFIX)) {
            options.put(k, v);
          }
        });
    options.putAll(readOptions);
    return CatalogTable.newBuilder()
        .schema(schema.build())
        .comment("Delta table " + table.path() + " (version " + snapshot.getVersion() + ")")
        .partitionKeys(snapshot.getPartitionColumnNames())
        .options(options)
        .build();
  }

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    if (!databaseExists(tablePath.getDatabaseName())) {
      throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName());
    }
    if (tableExists(tablePath)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), tablePath);
    }
    table(tablePath).ensureExists(declaration(tablePath, (ResolvedCatalogTable) table));
  }

  private DeltaTableSchema declaration(ObjectPath tablePath, ResolvedCatalogTable table) {
    String name = getName() + "." + tablePath.getFullName();
    DeltaTableSchema.Builder declaration =
        DeltaTableSchema.builder().columns(FlinkTypes.toRowSchema(table.getResolvedSchema(), name));
    declaration.partitionedBy(table.getPartitionKeys().toArray(new String[0]));
    String path = table(tablePath).path();
    table.getOptions().forEach((key, value) -> tableOption(name, path, key, value, declaration));
    table
        .getResolvedSchema()
        .getPrimaryKey()
        .map(UniqueConstraint::getColumns)
        .ifPresent(key -> declaration.property(PRIMARY_KEY_PROPERTY, String.join(",", key)));
    return declaration.build();
  }

  /**
   * Takes a table property; the options {@link #getTable} shows (connector, path) pass as they are.
   */
  private void tableOption(
      String table, String path, String key, String value, DeltaTableSchema.Builder declaration) {
    String lower = key.toLowerCase(Locale.ROOT);
    boolean shown =
        (lower.equals(FactoryUtil.CONNECTOR.key()) && value.equals(DeltaTableFactory.IDENTIFIER))
            || (lower.equals(DeltaSqlOptions.PATH.key()) && value.equals(path));
    if (lower.startsWith(DeltaSqlOptions.DELTA_PROPERTY_PREFIX)) {
      declaration.property(key, value);
    } else if (!shown) {
      throw new CatalogException(
          "Table "
              + table
              + ": option '"
              + key
              + "' is not a table property. A table of catalog '"
              + getName()
              + "' stores only delta.* properties (its location is the catalog's); give read and"
              + " write options per statement as a hint: SELECT ... FROM t /*+ OPTIONS('"
              + key
              + "' = '...') */");
    }
  }

  @Override
  public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
      throws TableNotExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    // adds new nullable columns; any other change fails naming it (DELTA_SCHEMA_MISMATCH)
    table(tablePath).ensureExists(declaration(tablePath, (ResolvedCatalogTable) newTable), true);
  }

  @Override
  public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
      throws TableNotExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    Path dropped =
        new Path(
            databaseDir(tablePath.getDatabaseName()),
            DROPPED + "/" + tablePath.getObjectName() + "-" + System.currentTimeMillis());
    move(tableDir(tablePath), dropped);
  }

  @Override
  public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
      throws TableNotExistException, TableAlreadyExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    ObjectPath target = new ObjectPath(tablePath.getDatabaseName(), newTableName);
    if (tableExists(target)) {
      throw new TableAlreadyExistException(getName(), target);
    }
    move(tableDir(tablePath), tableDir(target));
  }

  private void move(Path from, Path to) {
    try {
      fs.mkdirs(to.getParent());
      if (!fs.rename(from, to)) {
        throw new IOException("rename returned false");
      }
    } catch (IOException e) {
      throw failure("move " + from + " to " + to, e);
    }
  }
}
