package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.SchemaErrorClass;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The columns of a JDBC read as lakestream's schema model, from the driver's result metadata (as
 * Spark resolves a JDBC relation's schema: {@code SELECT * FROM relation WHERE 1=0}), and each
 * row's values as the Java values of {@link ColumnType}.
 *
 * <p>Types: BOOLEAN/BIT, SMALLINT/TINYINT (short), INTEGER (int), BIGINT (long), REAL (float),
 * FLOAT/DOUBLE (double), NUMERIC/DECIMAL (decimal(p,s); decimal(38,18) without a precision, as
 * Spark), the character types and PostgreSQL's uuid, json, jsonb (string), DATE, TIMESTAMP
 * (timestamp_ntz, as Spark with preferTimestampNTZ), TIMESTAMP WITH TIME ZONE and PostgreSQL's
 * timestamptz (timestamp), the binary types (binary). Any other type fails with {@code
 * UNSUPPORTED_DATA_TYPE} naming the column: cast it in option query or a dbtable subquery.
 */
@PublicEvolving
public final class JdbcColumns {
  private static final Set<String> STRING_TYPE_NAMES =
      Set.of("uuid", "json", "jsonb", "text", "citext", "xml");

  private JdbcColumns() {}

  /**
   * The schema of {@code config}'s relation, with the partition column checked.
   *
   * @throws LakestreamException {@code JDBC_SOURCE_CONNECTION_FAILED}, {@code
   *     JDBC_SOURCE_READ_FAILED} when the relation cannot be described, {@code
   *     UNSUPPORTED_DATA_TYPE}, or {@code INVALID_OPTION_VALUE} for a partition column that is not
   *     a numeric column of the relation
   */
  public static RowSchema resolve(JdbcSourceConfig config) {
    try (Connection connection = config.connect();
        Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery("SELECT * FROM " + config.relation() + " WHERE 1=0")) {
      RowSchema schema = of(rs.getMetaData());
      connection.rollback();
      checkPartitionColumn(config, schema);
      return schema;
    } catch (SQLException e) {
      throw new LakestreamException(
          JdbcErrorClass.JDBC_SOURCE_READ_FAILED,
          "Cannot read the columns of "
              + config.describe()
              + ": "
              + e.getMessage()
              + ". Check option "
              + (config.dbtable() != null ? "dbtable" : "query"),
          e);
    }
  }

  /** The columns of {@code metadata}. */
  static RowSchema of(ResultSetMetaData metadata) throws SQLException {
    List<Column> columns = new ArrayList<>();
    for (int i = 1; i <= metadata.getColumnCount(); i++) {
      String name = metadata.getColumnLabel(i);
      ColumnType type =
          type(name, metadata.getColumnType(i), metadata.getColumnTypeName(i), metadata, i);
      columns.add(
          new Column(name, type, metadata.isNullable(i) != ResultSetMetaData.columnNoNulls));
    }
    return RowSchema.of(columns);
  }

  private static ColumnType type(
      String name, int sqlType, String typeName, ResultSetMetaData metadata, int i)
      throws SQLException {
    String lower = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
    if (lower.equals("timestamptz")) {
      return ColumnType.TIMESTAMP;
    }
    if (STRING_TYPE_NAMES.contains(lower)) {
      return ColumnType.STRING;
    }
    return switch (sqlType) {
      case Types.BOOLEAN, Types.BIT -> ColumnType.BOOLEAN;
      case Types.TINYINT, Types.SMALLINT -> ColumnType.SHORT;
      case Types.INTEGER -> ColumnType.INT;
      case Types.BIGINT -> ColumnType.LONG;
      case Types.REAL -> ColumnType.FLOAT;
      case Types.FLOAT, Types.DOUBLE -> ColumnType.DOUBLE;
      case Types.NUMERIC, Types.DECIMAL -> decimal(metadata.getPrecision(i), metadata.getScale(i));
      case Types.CHAR,
          Types.VARCHAR,
          Types.LONGVARCHAR,
          Types.NCHAR,
          Types.NVARCHAR,
          Types.LONGNVARCHAR,
          Types.CLOB ->
          ColumnType.STRING;
      case Types.DATE -> ColumnType.DATE;
      case Types.TIMESTAMP -> ColumnType.TIMESTAMP_NTZ;
      case Types.TIMESTAMP_WITH_TIMEZONE -> ColumnType.TIMESTAMP;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> ColumnType.BINARY;
      default ->
          throw new LakestreamException(
              SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
              "JDBC source: column "
                  + name
                  + " has type "
                  + typeName
                  + ", which lakestream does not read; cast it (e.g. to text or a number) in"
                  + " option query or a dbtable subquery");
    };
  }

  private static ColumnType decimal(int precision, int scale) {
    if (precision <= 0 || precision > 38) {
      return ColumnType.decimal(38, 18);
    }
    return ColumnType.decimal(precision, Math.max(0, scale));
  }

  private static void checkPartitionColumn(JdbcSourceConfig config, RowSchema schema) {
    String column = config.partitionColumn();
    if (column == null) {
      return;
    }
    String bare = column.trim().replaceAll("^[\"`\\[]|[\"`\\]]$", "");
    for (Column c : schema.columns()) {
      if (c.name().equalsIgnoreCase(bare)) {
        switch (c.type().kind()) {
          case BYTE, SHORT, INT, LONG, DECIMAL, FLOAT, DOUBLE -> {
            return;
          }
          default ->
              throw JdbcSourceOptions.CATALOG.failure(
                  OptionErrorClass.INVALID_OPTION_VALUE,
                  JdbcSourceOptions.PARTITION_COLUMN.key(),
                  "option partitionColumn='"
                      + column
                      + "' is invalid: the column has type "
                      + c.type()
                      + "; give a numeric column");
        }
      }
    }
    throw JdbcSourceOptions.CATALOG.failure(
        OptionErrorClass.INVALID_OPTION_VALUE,
        JdbcSourceOptions.PARTITION_COLUMN.key(),
        "option partitionColumn='"
            + column
            + "' is not a column of "
            + config.describe()
            + "; columns: "
            + schema.columnNames());
  }

  /** The current row of {@code rs} as values of {@code schema}'s types. */
  public static Object[] read(ResultSet rs, RowSchema schema) throws SQLException {
    Object[] row = new Object[schema.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = value(rs, i + 1, schema.column(i).type());
    }
    return row;
  }

  private static Object value(ResultSet rs, int i, ColumnType type) throws SQLException {
    Object value =
        switch (type.kind()) {
          case BOOLEAN -> rs.getBoolean(i);
          case SHORT -> rs.getShort(i);
          case INT -> rs.getInt(i);
          case LONG -> rs.getLong(i);
          case FLOAT -> rs.getFloat(i);
          case DOUBLE -> rs.getDouble(i);
          case DECIMAL -> rs.getBigDecimal(i);
          case DATE -> rs.getObject(i, LocalDate.class);
          case TIMESTAMP -> {
            OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
            yield t == null ? null : t.toInstant();
          }
          case TIMESTAMP_NTZ -> rs.getObject(i, LocalDateTime.class);
          case BINARY -> rs.getBytes(i);
          default -> rs.getString(i);
        };
    return rs.wasNull() ? null : value;
  }
}
