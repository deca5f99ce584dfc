package io.lakestream.sql.connector.autoloader;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.types.FlinkTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.table.types.logical.RowType;

/**
 * The declared columns of a {@code cloudFiles} table against the Auto Loader's rows: the schema
 * they give ({@link #givenSchema}) and, once the stream is built, where each column is in its rows
 * ({@link #positions}), every name and type checked before any job runs.
 */
final class FileTableColumns {
  private FileTableColumns() {}

  /** Whether {@code row} declares the rescued data column (its name in any case). */
  static boolean declaresRescuedData(RowType row) {
    return row.getFieldNames().stream().anyMatch(AutoLoaderSchema.RESCUED_DATA::equalsIgnoreCase);
  }

  /**
   * The Auto Loader schema of the declared columns, as DDL text: every column but the partition
   * columns and the rescued data column, which the stream adds itself.
   *
   * @throws LakestreamException ({@code UNSUPPORTED_DATA_TYPE}) for a type Auto Loader does not
   *     read, ({@code SQL_SCHEMA_MISMATCH}) for a name a schema cannot hold
   */
  static String givenSchema(RowType row, List<String> partitions, String table) {
    List<String> columns = new ArrayList<>();
    for (RowType.RowField field : row.getFields()) {
      String name = field.getName();
      if (name.equalsIgnoreCase(AutoLoaderSchema.RESCUED_DATA)
          || partitions.stream().anyMatch(name::equalsIgnoreCase)) {
        continue;
      }
      if (!name.matches("[^\\s,`=()<>]+")) {
        throw new LakestreamException(
            SqlErrorClass.SQL_SCHEMA_MISMATCH,
            "Column '"
                + name
                + "' of "
                + table
                + ": an Auto Loader column name holds no spaces, commas, backticks, '=' or"
                + " brackets. Rename the column.");
      }
      columns.add(
          "`" + name + "` " + FlinkTypes.toCoreColumnType(field, table, "Auto Loader").sql());
    }
    return String.join(", ", columns);
  }

  /**
   * Where each declared column is in the rows of {@code loader}: the field of the same name, or
   * else the one whose name equals it ignoring case.
   *
   * @param source where the schema comes from, for messages (the schema location, or the DDL)
   * @throws LakestreamException ({@code SQL_SCHEMA_MISMATCH}) for a column the rows do not have, a
   *     type other than the schema's, or a rescued data column declared without the rows having
   *     one, or left out while they have one (what a record does not fit would be dropped)
   */
  static int[] positions(RowType row, AutoLoader loader, String table, String source) {
    checkRescuedData(row, loader.schema(), table);
    List<String> names = List.of(loader.rowType().getFieldNames());
    int[] positions = new int[row.getFieldCount()];
    for (int i = 0; i < positions.length; i++) {
      RowType.RowField field = row.getFields().get(i);
      int position = positionOf(field.getName(), names);
      if (position < 0) {
        throw mismatch(
            table,
            "declares column '"
                + field.getName()
                + "', which the files' schema ("
                + source
                + ") does not have: it has "
                + describe(loader.schema())
                + ". Remove the column or rename it to one of those.");
      }
      ColumnType expected = typeAt(loader.schema(), position);
      ColumnType declared = FlinkTypes.toColumnType(field.getType(), field.getName(), table);
      if (!declared.equals(expected)) {
        throw mismatch(
            table,
            "declares column '"
                + field.getName()
                + "' as "
                + field.getType().asSummaryString()
                + ", but the files' schema ("
                + source
                + ") has it as "
                + expected.sql()
                + ". Declare it so, or set its type with 'cloudFiles.schemaHints' (or"
                + " 'cloudFiles.inferColumnTypes' = 'true') in a new schema location.");
      }
      positions[i] = position;
    }
    return positions;
  }

  private static void checkRescuedData(RowType row, AutoLoaderSchema schema, String table) {
    boolean declared = declaresRescuedData(row);
    if (schema.rescuedDataColumn() && !declared) {
      throw mismatch(
          table,
          "does not declare `_rescued_data` STRING, but its schema evolution mode keeps what a"
              + " record does not fit there: without the column it would be dropped. Declare"
              + " the column, or set 'cloudFiles.schemaEvolutionMode' = 'none' to fail the query"
              + " on such a record instead.");
    }
    if (!schema.rescuedDataColumn() && declared) {
      throw mismatch(
          table,
          "declares `_rescued_data`, but 'cloudFiles.schemaEvolutionMode' = 'none' keeps no"
              + " rescued data. Remove the column or the option.");
    }
  }

  private static int positionOf(String name, List<String> names) {
    int exact = names.indexOf(name);
    if (exact >= 0) {
      return exact;
    }
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Data columns have their type; partition values and rescued data are strings. */
  private static ColumnType typeAt(AutoLoaderSchema schema, int position) {
    return position < schema.columns().size()
        ? schema.columns().get(position).type()
        : ColumnType.STRING;
  }

  private static String describe(AutoLoaderSchema schema) {
    List<String> all = new ArrayList<>();
    schema.columns().stream().map(FileTableColumns::describe).forEach(all::add);
    schema.partitionColumns().forEach(p -> all.add(p + " STRING (partition)"));
    if (schema.rescuedDataColumn()) {
      all.add(AutoLoaderSchema.RESCUED_DATA + " STRING");
    }
    return all.stream().collect(Collectors.joining(", "));
  }

  private static String describe(Column column) {
    return column.name() + " " + column.type().sql();
  }

  private static LakestreamException mismatch(String table, String text) {
    return new LakestreamException(
        SqlErrorClass.SQL_SCHEMA_MISMATCH, "Table " + table + " " + text);
  }
}
