package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The write statements of a Lakebase sink and how a batch of rows is shaped for them.
 *
 * <p>With a key: {@code INSERT INTO t ("c1", ...) VALUES (?, ...) ON CONFLICT ("k", ...) DO UPDATE
 * SET "c" = EXCLUDED."c", ...} ({@code DO NOTHING} when every column is a key column), and {@code
 * DELETE FROM t WHERE "k" = ? ...} for the rows a changelog deletes. Without a key: the plain
 * {@code INSERT}, and no deletes. {@link #shape(Object[][], int)} sorts a batch by key (every
 * writer takes row locks in the same order, which avoids deadlocks between them) and keeps only the
 * last row of each key (PostgreSQL refuses to update one row twice in one statement); {@link
 * #shape(Object[][], boolean[], int)} does the same for a batch that also deletes, where a key's
 * last change decides whether it is upserted or deleted.
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
  private final String deleteSql;
  private final String deleteUnnestSql;
  private final String versionColumn; // null: no version guard

  private UpsertStatement(
      PostgresTableName table, LakebaseSchema schema, List<String> key, String versionColumn) {
    this.table = table;
    this.schema = schema;
    this.key = List.copyOf(key);
    this.versionColumn = versionColumn;
    this.keyIndexes = key.stream().mapToInt(schema::indexOf).toArray();
    for (int i = 0; i < keyIndexes.length; i++) {
      if (keyIndexes[i] < 0) {
        throw new IllegalArgumentException("key column " + key.get(i) + " is not in " + schema);
      }
    }
    this.sql = buildSql(false);
    this.unnestSql =
        schema.columns().stream().allMatch(c -> ColumnArrays.arrayType(c.type()) != null)
            ? buildSql(true)
            : null;
    this.deleteSql = key.isEmpty() ? null : buildDeleteSql(false);
    this.deleteUnnestSql =
        !key.isEmpty()
                && Arrays.stream(keyIndexes).allMatch(i -> ColumnArrays.arrayType(type(i)) != null)
            ? buildDeleteSql(true)
            : null;
  }

  /**
   * @param key the upsert key columns (empty: plain inserts)
   * @throws IllegalArgumentException if a key column is not in the schema
   */
  public static UpsertStatement of(
      PostgresTableName table, LakebaseSchema schema, List<String> key) {
    return new UpsertStatement(table, schema, key, null);
  }

  /**
   * The same statement with a version guard: a key's row is only updated when the incoming row's
   * {@code column} is greater ({@code ON CONFLICT .. DO UPDATE .. WHERE t."v" < EXCLUDED."v"}), so
   * a replayed (older) row never moves it backwards; equal versions leave it as it is. Deletes are
   * not guarded.
   *
   * @throws IllegalArgumentException without a key, if {@code column} is not in the schema, is in
   *     the key, or its type is not comparable
   */
  public UpsertStatement withVersionColumn(String column) {
    int index = schema.indexOf(column);
    if (key.isEmpty() || index < 0 || key.contains(column)) {
      throw new IllegalArgumentException(
          "version column "
              + column
              + " must be one of the stream's columns "
              + schema.columnNames()
              + " outside the upsert key "
              + key
              + " (and the sink needs a key)");
    }
    if (!PostgresTypes.isComparable(schema.columns().get(index).type())) {
      throw new IllegalArgumentException(
          "version column "
              + column
              + " has type "
              + PostgresTypes.describe(schema.columns().get(index).type())
              + ", which is not comparable");
    }
    return new UpsertStatement(table, schema, key, column);
  }

  /** The version guard's column, or null. */
  public String versionColumn() {
    return versionColumn;
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
      Connection connection, PreparedStatement statement, Object[][] rows, int count)
      throws SQLException {
    List<Column> columns = schema.columns();
    for (int c = 0; c < columns.size(); c++) {
      ColumnArrays.bind(connection, statement, c + 1, columns.get(c).type(), rows, c, 0, count);
    }
  }

  /**
   * The single-row delete {@code DELETE FROM t WHERE "k1" = ? AND ...}, for JDBC batches and row
   * replays; null without a key.
   */
  public String deleteSql() {
    return deleteSql;
  }

  /**
   * The whole-batch delete {@code DELETE FROM t WHERE ("k1", ...) IN (SELECT * FROM
   * UNNEST(?::int8[], ...))}, one array per key column; null without a key or when a key column's
   * type has no array binding here (then JDBC batches of {@link #deleteSql()} are used).
   */
  public String deleteUnnestSql() {
    return deleteUnnestSql;
  }

  /**
   * Binds the key columns of {@code rows[from, from + count)} as one array each to {@link
   * #deleteUnnestSql()}.
   *
   * @throws ClassCastException or {@link ArithmeticException} if a value does not fit its column's
   *     type (replay the rows with {@link #bindKey} to name it)
   * @throws SQLException as the driver reports it
   */
  public void bindKeyColumns(
      Connection connection, PreparedStatement statement, Object[][] rows, int from, int count)
      throws SQLException {
    for (int k = 0; k < keyIndexes.length; k++) {
      int c = keyIndexes[k];
      ColumnArrays.bind(connection, statement, k + 1, type(c), rows, c, from, count);
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
   * How {@link #shape(Object[][], boolean[], int)} laid a batch out: {@code rows[0, upserts)} are
   * upserted, then {@code rows[upserts, upserts + deletes)} are deleted by key, each part in key
   * order.
   *
   * @param upserts rows to upsert
   * @param deletes rows whose keys to delete
   */
  public record Changes(int upserts, int deletes) {}

  /**
   * Shapes a batch that also deletes: {@code deletes[i]} tells whether {@code rows[i]} deletes its
   * key (its other values are ignored). Sorts {@code rows[0, count)} by key, stably, and keeps the
   * last change of each key, so a key deleted and then written again in one batch is upserted and
   * one written and then deleted is deleted; moves the kept upserts to the front, then the kept
   * deletes.
   *
   * @throws IllegalStateException without a key, which deletes need
   */
  public Changes shape(Object[][] rows, boolean[] deletes, int count) {
    if (keyIndexes.length == 0) {
      throw new IllegalStateException("deletes need a key; " + table + " is written without one");
    }
    Comparator<Object[]> byKey = keyOrder();
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> byKey.compare(rows[a], rows[b])); // stable: arrival order per key
    Object[][] upserts = new Object[count][];
    Object[][] deleted = new Object[count][];
    int upsertCount = 0;
    int deleteCount = 0;
    for (int i = 0; i < count; i++) {
      int row = order[i];
      if (i == count - 1 || byKey.compare(rows[row], rows[order[i + 1]]) != 0) {
        if (deletes[row]) {
          deleted[deleteCount++] = rows[row];
        } else {
          upserts[upsertCount++] = rows[row];
        }
      }
    }
    System.arraycopy(upserts, 0, rows, 0, upsertCount);
    System.arraycopy(deleted, 0, rows, upsertCount, deleteCount);
    Arrays.fill(rows, upsertCount + deleteCount, count, null);
    return new Changes(upsertCount, deleteCount);
  }

  /**
   * Binds one row's values.
   *
   * @throws LakebaseWriteException if a value's Java class does not fit its column's type
   * @throws SQLException as the driver reports it
   */
  public void bind(PreparedStatement statement, Object[] row)
      throws SQLException, LakebaseWriteException {
    checkWidth(row);
    for (int i = 0; i < row.length; i++) {
      bindValue(statement, i + 1, row, i);
    }
  }

  /**
   * Binds one row's key values to {@link #deleteSql()}.
   *
   * @throws LakebaseWriteException if a value's Java class does not fit its column's type
   * @throws SQLException as the driver reports it
   */
  public void bindKey(PreparedStatement statement, Object[] row)
      throws SQLException, LakebaseWriteException {
    checkWidth(row);
    for (int k = 0; k < keyIndexes.length; k++) {
      bindValue(statement, k + 1, row, keyIndexes[k]);
    }
  }

  private void checkWidth(Object[] row) throws LakebaseWriteException {
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
  }

  private void bindValue(PreparedStatement statement, int parameter, Object[] row, int c)
      throws SQLException, LakebaseWriteException {
    try {
      PostgresValues.bind(statement, parameter, type(c), row[c]);
    } catch (ClassCastException | ArithmeticException e) {
      String column = schema.columns().get(c).name();
      throw new LakebaseWriteException(
          "cannot write row with key "
              + describeKey(row)
              + " to table "
              + table
              + ": column \""
              + column
              + "\" is declared "
              + PostgresTypes.describe(type(c))
              + " but the value is a "
              + row[c].getClass().getName()
              + " ("
              + e.getMessage()
              + "); fix the RowFields function or the schema",
          null,
          describeKey(row),
          column,
          e);
    }
  }

  private ColumnType type(int column) {
    return schema.columns().get(column).type();
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
                  .map(c -> "?::" + ColumnArrays.arrayType(c.type()) + "[]")
                  .collect(Collectors.joining(", ")))
          .append(')');
    } else {
      text.append("VALUES (")
          .append(columns.stream().map(c -> "?").collect(Collectors.joining(", ")))
          .append(')');
    }
    return text.append(conflictClause()).toString();
  }

  /**
   * The statement's {@code ON CONFLICT ("k1", ...) DO UPDATE SET "c" = EXCLUDED."c", ...} clause
   * with a leading space ({@code DO NOTHING} when every column is in the key); empty without a key.
   */
  public String conflictClause() {
    if (key.isEmpty()) {
      return "";
    }
    List<String> updates =
        schema.columnNames().stream()
            .filter(c -> !key.contains(c))
            .map(PostgresIdentifiers::quote)
            .map(c -> c + " = EXCLUDED." + c)
            .collect(Collectors.toList());
    String guard =
        versionColumn == null
            ? ""
            : " WHERE "
                + table.sql()
                + "."
                + PostgresIdentifiers.quote(versionColumn)
                + " < EXCLUDED."
                + PostgresIdentifiers.quote(versionColumn);
    return " ON CONFLICT ("
        + key.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "))
        + ") DO "
        + (updates.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", updates) + guard);
  }

  private String buildDeleteSql(boolean unnest) {
    String keyColumns =
        key.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
    StringBuilder text = new StringBuilder("DELETE FROM ").append(table.sql()).append(" WHERE ");
    if (unnest) {
      text.append('(')
          .append(keyColumns)
          .append(") IN (SELECT * FROM UNNEST(")
          .append(
              Arrays.stream(keyIndexes)
                  .mapToObj(i -> "?::" + ColumnArrays.arrayType(type(i)) + "[]")
                  .collect(Collectors.joining(", ")))
          .append("))");
    } else {
      text.append(
          key.stream()
              .map(c -> PostgresIdentifiers.quote(c) + " = ?")
              .collect(Collectors.joining(" AND ")));
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return sql;
  }
}
