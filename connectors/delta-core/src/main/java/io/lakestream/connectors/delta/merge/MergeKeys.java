package io.lakestream.connectors.delta.merge;

import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge key of rows: the key columns' values, normalized so that a source value and the value
 * read back from Parquet compare equal (an Integer in a LONG column equals the Long read back,
 * microseconds equal the Instant, and so on), and a total order over keys and rows.
 */
final class MergeKeys {
  /** Orders keys (lists of normalized values) column by column, nulls first. */
  static final Comparator<List<Object>> KEY_ORDER =
      (a, b) -> {
        for (int i = 0; i < a.size(); i++) {
          int c = compareValues(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      };

  private final DeltaTableSchema schema;
  private final int[] indexes;
  private final ColumnType[] types;

  MergeKeys(DeltaTableSchema schema, List<String> keyColumns) {
    this.schema = schema;
    this.indexes = keyColumns.stream().mapToInt(schema::indexOf).toArray();
    this.types = new ColumnType[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      types[i] = schema.columns().get(indexes[i]).type();
    }
  }

  int[] indexes() {
    return indexes;
  }

  ColumnType type(int keyPosition) {
    return types[keyPosition];
  }

  String columnName(int keyPosition) {
    return schema.columns().get(indexes[keyPosition]).name();
  }

  /** The normalized key of {@code row}, or null if a key value is null (such rows never match). */
  List<Object> keyOf(Object[] row) {
    List<Object> key = new ArrayList<>(indexes.length);
    for (int i = 0; i < indexes.length; i++) {
      Object v = normalize(types[i], row[indexes[i]]);
      if (v == null) {
        return null;
      }
      key.add(v);
    }
    return key;
  }

  /** A readable key for messages: {@code {id=7, region=eu}}. */
  String describe(List<Object> key) {
    Map<String, Object> named = new LinkedHashMap<>();
    for (int i = 0; i < indexes.length; i++) {
      named.put(columnName(i), key.get(i));
    }
    return named.toString();
  }

  /** The comparable form of a value of a column of {@code type}; null stays null. */
  static Object normalize(ColumnType type, Object v) {
    if (v == null) {
      return null;
    }
    switch (type.kind()) {
      case LONG:
        return v instanceof Number n ? (Object) n.longValue() : v;
      case INT:
        return v instanceof Number n ? (Object) n.intValue() : v;
      case DOUBLE:
        return v instanceof Number n ? (Object) n.doubleValue() : v;
      case STRING:
        return v.toString();
      case DECIMAL:
        if (v instanceof BigDecimal d) {
          try {
            return d.setScale(((ColumnType.Decimal) type).scale(), RoundingMode.UNNECESSARY);
          } catch (ArithmeticException e) {
            return d;
          }
        }
        return v;
      case TIMESTAMP:
        return v instanceof Long micros ? Instant.EPOCH.plus(micros, ChronoUnit.MICROS) : v;
      case DATE:
        return v instanceof Integer days ? LocalDate.ofEpochDay(days) : v;
      default:
        return v;
    }
  }

  /** A total order over values: nulls first, then natural order, else by text. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compareValues(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null) {
      return -1;
    }
    if (b == null) {
      return 1;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compare(x, y);
    }
    if (a instanceof Comparable ca && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    return a.toString().compareTo(b.toString());
  }

  /** A total order over whole rows (value by value), used to break ordering-column ties. */
  static int compareRows(Object[] a, Object[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = compareValues(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }
}
