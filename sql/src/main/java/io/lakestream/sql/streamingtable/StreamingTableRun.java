package io.lakestream.sql.streamingtable;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.QueryContextConfig;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.SqlScript;
import io.lakestream.sql.catalog.DeltaCatalog;
import io.lakestream.sql.catalog.DeltaCatalogFactory;
import io.lakestream.sql.connector.delta.DeltaTableFactory;
import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Runs a {@code CREATE OR REFRESH STREAMING TABLE} statement inside the query that refreshes it:
 * {@link #prepare} creates the Delta table in the statement's Delta catalog if it is missing, its
 * columns the query's (time attributes as plain timestamps), partitioning, comment and {@code
 * delta.*} properties the statement's, and gives back {@code INSERT INTO <table> <query>}, which
 * the script's query runs as any other insert (so the table is an append-only Delta sink, exactly
 * once per epoch).
 *
 * <p>A refresh ({@link StreamingTableRefresh}) names its table with the table setting {@link
 * #REFRESHED_TABLE}; the query's checkpoint location must be the table's {@code
 * <table>/_checkpoints/streaming_table}. Failures, all {@link
 * SqlErrorClass#SQL_INVALID_STREAMING_TABLE} naming the fix: a statement run outside a refresh (as
 * part of another query, which would keep a second checkpoint of the same table), a plain {@code
 * INSERT INTO} in a refresh, a table outside a Delta catalog, a query whose columns differ from the
 * existing table's, a checkpoint location elsewhere.
 */
@Internal
public final class StreamingTableRun {
  /** The checkpoint location of a streaming table, below its directory. */
  public static final String CHECKPOINT_DIRECTORY = "_checkpoints/streaming_table";

  /**
   * Table setting: the streaming table a query refreshes, {@code catalog.database.table} (not under
   * {@code lakestream.}, the prefix of the query's own settings).
   */
  public static final ConfigOption<String> REFRESHED_TABLE =
      ConfigOptions.key("internal.lakestream.refreshed-streaming-table")
          .stringType()
          .noDefaultValue()
          .withDescription("The streaming table the query refreshes (set by the refresh).");

  private StreamingTableRun() {}

  /**
   * The statement to run for {@code statement}: the statement itself, unless it creates a streaming
   * table; then {@code INSERT INTO} the table (created first if missing) when the query refreshes
   * that table, or null when it refreshes another table of the script.
   *
   * @throws LakestreamException ({@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}) as the class
   *     says
   */
  public static SqlScript.Statement prepare(
      SqlScript.Statement statement, StreamTableEnvironment tables) {
    Optional<String> refreshed = tables.getConfig().getOptional(REFRESHED_TABLE);
    if (!StreamingTableStatement.isIn(statement)) {
      if (refreshed.isPresent() && statement.isInsert()) {
        throw StreamingTableStatement.invalid(
            "the script refreshes streaming table "
                + refreshed.get()
                + ", and its INSERT INTO at "
                + statement.position()
                + " would join that refresh: move the INSERT to a script of its own (lakestream"
                + " sql -f), or write it as a streaming table.");
      }
      return statement;
    }
    StreamingTableStatement table = StreamingTableStatement.parse(statement);
    ObjectIdentifier id = table.identifier(tables.getCurrentCatalog(), tables.getCurrentDatabase());
    if (refreshed.isEmpty()) {
      throw StreamingTableStatement.invalid(
          id.asSummaryString()
              + " refreshes as a query of its own, its checkpoint under the table: run lakestream"
              + " sql refresh "
              + id.getObjectName()
              + " -f <script> (or StreamingTableRefresh.of(script, \""
              + id.getObjectName()
              + "\").refresh()), not as a part of another query.");
    }
    if (!refreshed.get().equals(id.asSummaryString())) {
      return null; // another table of the script: not a part of this refresh
    }
    return insertInto(tables, table, id);
  }

  private static SqlScript.Statement insertInto(
      StreamTableEnvironment tables, StreamingTableStatement table, ObjectIdentifier id) {
    DeltaCatalog catalog = deltaCatalog(tables, id);
    requireOwnCheckpoint(tables, checkpointLocation(catalog, id));
    ResolvedSchema columns = tables.sqlQuery(table.query()).getResolvedSchema();
    if (catalog.tableExists(id.toObjectPath())) {
      requireSameColumns(catalog, id, columns);
    } else {
      tables.createTable(id.asSerializableString(), descriptor(table, columns));
    }
    SqlScript.Statement written = table.statement();
    return new SqlScript.Statement(
        "INSERT INTO " + id.asSerializableString() + "\n" + table.query(),
        written.line(),
        written.column());
  }

  /** Where the refresh of {@code id} keeps its checkpoint: below the table's directory. */
  static String checkpointLocation(DeltaCatalog catalog, ObjectIdentifier id) {
    return catalog.tableLocation(id.toObjectPath()).replaceAll("/+$", "")
        + "/"
        + CHECKPOINT_DIRECTORY;
  }

  /**
   * The Delta catalog {@code id} belongs to.
   *
   * @throws LakestreamException if it is another kind of catalog
   */
  static DeltaCatalog deltaCatalog(
      org.apache.flink.table.api.TableEnvironment tables, ObjectIdentifier id) {
    Optional<Catalog> catalog = tables.getCatalog(id.getCatalogName());
    if (catalog.isPresent() && catalog.get() instanceof DeltaCatalog delta) {
      return delta;
    }
    throw StreamingTableStatement.invalid(
        id.asSummaryString()
            + " is not in a Delta catalog, and a streaming table is a Delta table of one: declare"
            + " it first, CREATE CATALOG lake WITH ('type' = '"
            + DeltaCatalogFactory.IDENTIFIER
            + "', 'warehouse' = '<directory or s3a:// URI>'); USE CATALOG lake; (catalog '"
            + id.getCatalogName()
            + "' is "
            + catalog.map(c -> c.getClass().getSimpleName()).orElse("not declared")
            + ").");
  }

  private static void requireOwnCheckpoint(StreamTableEnvironment tables, String expected) {
    Optional<String> running =
        QueryContextConfig.find(tables.getConfig()).map(QueryContext::checkpointLocation);
    if (running.isPresent() && !sameLocation(running.get(), expected)) {
      throw StreamingTableStatement.invalid(
          "the refresh runs with checkpoint location "
              + running.get()
              + ", but a streaming table keeps its checkpoint at "
              + expected
              + ": start it with StreamingTableRefresh, which sets it.");
    }
  }

  private static boolean sameLocation(String a, String b) {
    return Locations.absolute(a).equals(Locations.absolute(b));
  }

  private static void requireSameColumns(
      DeltaCatalog catalog, ObjectIdentifier id, ResolvedSchema query) {
    List<String> stored;
    try {
      stored =
          catalog.getTable(id.toObjectPath()).getUnresolvedSchema().getColumns().stream()
              .map(Schema.UnresolvedColumn::getName)
              .toList();
    } catch (TableNotExistException e) {
      throw new IllegalStateException(id + " vanished while being refreshed", e);
    }
    List<String> given = query.getColumnNames();
    if (!lower(stored).equals(lower(given))) {
      throw StreamingTableStatement.invalid(
          id.asSummaryString()
              + " has the columns "
              + stored
              + ", but its query gives "
              + given
              + ". A refresh appends to the table, so its query must keep the table's columns;"
              + " to start the table over, DROP TABLE "
              + id.asSummaryString()
              + " (its data moves to the database's _dropped directory, its checkpoint with it)"
              + " and refresh again.");
    }
  }

  private static List<String> lower(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }

  private static TableDescriptor descriptor(StreamingTableStatement table, ResolvedSchema query) {
    Schema.Builder schema = Schema.newBuilder();
    for (Column column : query.getColumns()) {
      schema.column(column.getName(), plain(column.getDataType()));
    }
    TableDescriptor.Builder descriptor =
        TableDescriptor.forConnector(DeltaTableFactory.IDENTIFIER)
            .schema(schema.build())
            .partitionedBy(table.partitionKeys().toArray(new String[0]));
    table.comment().ifPresent(descriptor::comment);
    table.properties().forEach(descriptor::option);
    return descriptor.build();
  }

  /** The type without its time attribute (a window's rowtime column, say). */
  private static DataType plain(DataType type) {
    LogicalType logical = type.getLogicalType();
    DataType plain =
        switch (logical.getTypeRoot()) {
          case TIMESTAMP_WITHOUT_TIME_ZONE ->
              DataTypes.TIMESTAMP(((TimestampType) logical).getPrecision());
          case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
              DataTypes.TIMESTAMP_LTZ(((LocalZonedTimestampType) logical).getPrecision());
          default -> type;
        };
    return logical.isNullable() ? plain.nullable() : plain.notNull();
  }
}
