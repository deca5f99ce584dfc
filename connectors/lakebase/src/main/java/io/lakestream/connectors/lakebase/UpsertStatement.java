package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The write statement of a Lakebase sink and how a batch of rows is shaped for it.
 *
 * <p>With a key: {@code INSERT INTO t ("c1", ...) VALUES (?, ...) ON CONFLICT ("k", ...) DO UPDATE
 * SET "c" = EXCLUDED."c", ...} ({@code DO NOTHING} when every column is a key column). Without a
 * key: the plain {@code INSERT}. {@link #shape(Object[][], int)} sorts a batch by key (every writer
 * takes row locks in the same order, which avoids deadlocks between them) and keeps only the last
 * row of each key (PostgreSQL refuses to update one row twice in one statement).
 */
@Internal
public final class UpsertStatement implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PostgresTableName table;
  private final LakebaseSchema schema;
  private final List<String> key;
  private final int[] keyIndexes;
  private final String sql;
  private final String unnestSql;

  private UpsertStatement(PostgresTableName table, LakebaseSchema schema, List<String> key) {
    this.table = table;
    this.schema = schema;
    this.key = List.copyOf(key);
    this.keyIndexes = key.stream().mapToInt(schema::indexOf).toArray();
    for (int i = 0; i < keyIndexes.length; i++) {
      if (keyIndexes[i] < 0) {
        throw new IllegalArgumentException("key column " + key.get(i) + " is not in " + schema);
      }
    }
    this.sql = buildSql(false);
    this.unnestSql =
        schema.columns().stream().allMatch(c -> arrayType(c.type()) != null)
            ? buildSql(true)
            : null;
  }

  /**
   * @param key the upsert key columns (empty: plain inserts)
   * @throws IllegalArgumentException if a key column is not in the schema
   */
  public static UpsertStatement of(
      PostgresTableName table, LakebaseSchema schema, List<String> key) {
    return new UpsertStatement(table, schema, key);
  }

  /** The single-row statement ({@code VALUES (?, ...)}), for JDBC batches and row replays. */
  public String sql() {
    return sql;
  }

  /**
   * The whole-batch statement {@code INSERT .. SELECT * FROM UNNEST(?::int8[], ...)}, one array per
   * column; null when a column's type has no array binding here (then JDBC batches of {@link
   * #sql()} are used). Measured about twice as fast as a rewritten JDBC batch for 1000-row upserts.
   */
  public String unnestSql() {
    return unnestSql;
  }

  /**
   * Binds {@code rows[0, count)} as one array per column to {@link #unnestSql()}.
   *
   * @throws ClassCastException or {@link ArithmeticException} if a value does not fit its column's
   *     type (replay the rows with {@link #bind} to name it)
   * @throws SQLException as the driver reports it
   */
  public void bindColumns(
      java.sql.Connection connection, PreparedStatement statement, Object[][] rows, int count)
      throws SQLException {
    List<Column> columns = schema.columns();
    for (int c = 0; c < columns.size(); c++) {
      ColumnType.Kind kind = columns.get(c).type().kind();
      if (bindPrimitive(statement, c, kind, rows, count)) {
        continue;
      }
      Object[] values;
      switch (kind) {
        case LONG:
          values = new Long[count];
          for (int i = 0; i < count; i++) {
            Object v = rows[i][c];
            values[i] = v == null ? null : PostgresValues.integral(v);
          }
          break;
        case INT:
          values = new Integer[count];
          for (int i = 0; i < count; i++) {
            Object v = rows[i][c];
            values[i] = v == null ? null : Math.toIntExact(PostgresValues.integral(v));
          }
          break;
        case DOUBLE:
          values = new Double[count];
          for (int i = 0; i < count; i++) {
            Object v = rows[i][c];
            values[i] = v == null ? null : ((Number) v).doubleValue();
          }
          break;
        case STRING:
          values = new String[count];
          for (int i = 0; i < count; i++) {
            Object v = rows[i][c];
            values[i] = v == null ? null : ((CharSequence) v).toString();
          }
          break;
        case BOOLEAN:
          values = new Boolean[count];
          for (int i = 0; i < count; i++) {
            values[i] = (Boolean) rows[i][c];
          }
          break;
        case DECIMAL:
          values = new java.math.BigDecimal[count];
          for (int i = 0; i < count; i++) {
            values[i] = (java.math.BigDecimal) rows[i][c];
          }
          break;
        default:
          throw new IllegalStateException("no array binding for " + kind);
      }
      statement.setArray(c + 1, connection.createArrayOf(arrayType(columns.get(c).type()), values));
    }
  }

  /**
   * Binds column {@code c} as a primitive array when its kind has one and no value is null: the
   * driver sends {@code long[]}, {@code int[]} and {@code double[]} in PostgreSQL's binary array
   * format, which the server reads without parsing text (measured ~15% faster than boxed arrays,
   * which go as text literals).
   *
   * @return false if the column must be bound as a boxed array
   */
  private static boolean bindPrimitive(
      PreparedStatement statement, int c, ColumnType.Kind kind, Object[][] rows, int count)
      throws SQLException {
    for (int i = 0; i < count; i++) {
      if (rows[i][c] == null) {
        return false;
      }
    }
    switch (kind) {
      case LONG:
        long[] longs = new long[count];
        for (int i = 0; i < count; i++) {
          longs[i] = PostgresValues.integral(rows[i][c]);
        }
        statement.setObject(c + 1, longs);
        return true;
      case INT:
        int[] ints = new int[count];
        for (int i = 0; i < count; i++) {
          ints[i] = Math.toIntExact(PostgresValues.integral(rows[i][c]));
        }
        statement.setObject(c + 1, ints);
        return true;
      case DOUBLE:
        double[] doubles = new double[count];
        for (int i = 0; i < count; i++) {
          doubles[i] = ((Number) rows[i][c]).doubleValue();
        }
        statement.setObject(c + 1, doubles);
        return true;
      default:
        return false;
    }
  }

  private static String arrayType(ColumnType type) {
    switch (type.kind()) {
      case LONG:
        return "int8";
      case INT:
        return "int4";
      case DOUBLE:
        return "float8";
      case STRING:
        return "text";
      case BOOLEAN:
        return "bool";
      case DECIMAL:
        return "numeric";
      default:
        return null;
    }
  }

  public PostgresTableName table() {
    return table;
  }

  public LakebaseSchema schema() {
    return schema;
  }

  /** The key columns; empty when the sink inserts. */
  public List<String> key() {
    return key;
  }

  /**
   * Sorts {@code rows[0, count)} by key, stably, and keeps the last row of each key, moving the
   * kept rows to the front. Without a key the rows stay as they are.
   *
   * @return how many rows are kept
   */
  public int shape(Object[][] rows, int count) {
    if (keyIndexes.length == 0 || count < 2) {
      return count;
    }
    Comparator<Object[]> byKey = keyOrder();
    Arrays.sort(rows, 0, count, byKey);
    int kept = 0;
    for (int i = 0; i < count; i++) {
      if (i == count - 1 || byKey.compare(rows[i], rows[i + 1]) != 0) {
        rows[kept++] = rows[i];
      }
    }
    Arrays.fill(rows, kept, count, null);
    return kept;
  }

  /**
   * Binds one row's values.
   *
   * @throws LakebaseWriteException if a value's Java class does not fit its column's type
   * @throws SQLException as the driver reports it
   */
  public void bind(PreparedStatement statement, Object[] row)
      throws SQLException, LakebaseWriteException {
    List<Column> columns = schema.columns();
    if (row.length != columns.size()) {
      throw new LakebaseWriteException(
          "a row has "
              + row.length
              + " values but the sink declares "
              + columns.size()
              + " columns "
              + schema.columnNames()
              + "; fix the RowFields function",
          null,
          describeKey(row),
          null,
          null);
    }
    for (int i = 0; i < row.length; i++) {
      try {
        PostgresValues.bind(statement, i + 1, columns.get(i).type(), row[i]);
      } catch (ClassCastException | ArithmeticException e) {
        String column = columns.get(i).name();
        throw new LakebaseWriteException(
            "cannot write row with key "
                + describeKey(row)
                + " to table "
                + table
                + ": column \""
                + column
                + "\" is declared "
                + PostgresTypes.describe(columns.get(i).type())
                + " but the value is a "
                + row[i].getClass().getName()
                + " ("
                + e.getMessage()
                + "); fix the RowFields function or the schema",
            null,
            describeKey(row),
            column,
            e);
      }
    }
  }

  /** The row's key as {@code (k1=v1, k2=v2)}, or {@code (no key)}. */
  public String describeKey(Object[] row) {
    if (keyIndexes.length == 0) {
      return "(no key)";
    }
    return IntStream.range(0, keyIndexes.length)
        .mapToObj(
            i ->
                key.get(i)
                    + "="
                    + (keyIndexes[i] < row.length ? String.valueOf(row[keyIndexes[i]]) : "?"))
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private Comparator<Object[]> keyOrder() {
    Comparator<Object[]> order = null;
    for (int index : keyIndexes) {
      Comparator<Object[]> next = Comparator.comparing(row -> row[index], valueOrder(index));
      order = order == null ? next : order.thenComparing(next);
    }
    return order;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Comparator<Object> valueOrder(int index) {
    ColumnType.Kind kind = schema.columns().get(index).type().kind();
    Comparator<Object> values;
    switch (kind) {
      case LONG:
      case INT:
        values = Comparator.comparingLong(v -> ((Number) v).longValue());
        break;
      case DOUBLE:
        values = Comparator.comparingDouble(v -> ((Number) v).doubleValue());
        break;
      case STRING:
        values = Comparator.comparing(Object::toString);
        break;
      default:
        values = (a, b) -> ((Comparable) a).compareTo(b);
    }
    return Comparator.nullsFirst(values);
  }

  private String buildSql(boolean unnest) {
    List<String> columns =
        schema.columnNames().stream().map(PostgresIdentifiers::quote).collect(Collectors.toList());
    StringBuilder text =
        new StringBuilder("INSERT INTO ")
            .append(table.sql())
            .append(" (")
            .append(String.join(", ", columns))
            .append(") ");
    if (unnest) {
      text.append("SELECT * FROM UNNEST(")
          .append(
              schema.columns().stream()
                  .map(c -> "?::" + arrayType(c.type()) + "[]")
                  .collect(Collectors.joining(", ")))
          .append(')');
    } else {
      text.append("VALUES (")
          .append(columns.stream().map(c -> "?").collect(Collectors.joining(", ")))
          .append(')');
    }
    if (!key.isEmpty()) {
      text.append(" ON CONFLICT (")
          .append(key.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", ")))
          .append(") DO ");
      List<String> updates =
          schema.columnNames().stream()
              .filter(c -> !key.contains(c))
              .map(PostgresIdentifiers::quote)
              .map(c -> c + " = EXCLUDED." + c)
              .collect(Collectors.toList());
      text.append(updates.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", updates));
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return sql;
  }
}
