package io.lakestream.connectors.delta.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a data file may hold a row with one of a batch's merge keys, from the file's
 * partition values (for key columns that are partition columns) and its min/max statistics (for the
 * other key columns). It only answers "no" when that is certain: a key column without usable
 * statistics (missing, or of a type compared here only by equality of partition values) counts as
 * unbounded, and string maxima of 32 or more characters count as unbounded (writers may truncate
 * them).
 */
final class MergeKeyRanges {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STRING_STATS_PREFIX = 32;

  private final MergeKeys keys;
  private final List<String> partitionColumns;
  private final List<List<Object>> sorted;

  MergeKeyRanges(MergeKeys keys, List<String> partitionColumns, Collection<List<Object>> keySet) {
    this.keys = keys;
    this.partitionColumns = partitionColumns;
    this.sorted = new ArrayList<>(keySet);
    this.sorted.sort(MergeKeys.KEY_ORDER);
  }

  boolean isEmpty() {
    return sorted.isEmpty();
  }

  /**
   * Whether a file with these partition values and statistics JSON (null or empty: none) may hold a
   * row with one of the keys.
   */
  boolean mayContainAny(Map<String, String> partitionValues, String statsJson) {
    if (sorted.isEmpty()) {
      return false;
    }
    int n = keys.indexes().length;
    Object[] lo = new Object[n];
    Object[] hi = new Object[n];
    boolean[] bounded = new boolean[n];
    JsonNode stats = parse(statsJson);
    for (int i = 0; i < n; i++) {
      String column = keys.columnName(i);
      ColumnType type = keys.type(i);
      if (partitionColumns.contains(column)) {
        String text = partitionValues.get(column);
        if (text == null) {
          return false; // a null key value matches nothing
        }
        Object value = parseValue(type, text);
        if (value != null) {
          lo[i] = value;
          hi[i] = value;
          bounded[i] = true;
        }
      } else if (stats != null) {
        JsonNode nulls = stats.path("nullCount").path(column);
        JsonNode records = stats.path("numRecords");
        if (nulls.canConvertToLong()
            && records.canConvertToLong()
            && nulls.asLong() == records.asLong()) {
          return false; // every value of the key column is null
        }
        Object min = statValue(type, stats.path("minValues").path(column), false);
        Object max = statValue(type, stats.path("maxValues").path(column), true);
        if (min != null && max != null) {
          lo[i] = min;
          hi[i] = max;
          bounded[i] = true;
        }
      }
    }
    int from = 0;
    int to = sorted.size();
    if (bounded[0]) {
      from = lowerBound(lo[0]);
      to = upperBound(hi[0]);
    }
    for (int k = from; k < to; k++) {
      List<Object> key = sorted.get(k);
      boolean inside = true;
      for (int i = 1; i < n && inside; i++) {
        inside =
            !bounded[i]
                || (MergeKeys.compareValues(key.get(i), lo[i]) >= 0
                    && MergeKeys.compareValues(key.get(i), hi[i]) <= 0);
      }
      if (inside) {
        return true;
      }
    }
    return false;
  }

  /** The first key whose first column is >= value. */
  private int lowerBound(Object value) {
    int a = 0;
    int b = sorted.size();
    while (a < b) {
      int m = (a + b) >>> 1;
      if (MergeKeys.compareValues(sorted.get(m).get(0), value) < 0) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }

  /** The first key whose first column is > value. */
  private int upperBound(Object value) {
    int a = 0;
    int b = sorted.size();
    while (a < b) {
      int m = (a + b) >>> 1;
      if (MergeKeys.compareValues(sorted.get(m).get(0), value) <= 0) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }

  private static JsonNode parse(String statsJson) {
    if (statsJson == null || statsJson.isEmpty()) {
      return null;
    }
    try {
      return JSON.readTree(statsJson);
    } catch (IOException e) {
      return null; // unreadable statistics prune nothing
    }
  }

  /** A statistic as a normalized key value, or null if it cannot bound the column safely. */
  private static Object statValue(ColumnType type, JsonNode node, boolean isMax) {
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    switch (type.kind()) {
      case LONG:
        return node.canConvertToLong() && node.isIntegralNumber() ? node.asLong() : null;
      case INT:
        return node.canConvertToInt() && node.isIntegralNumber() ? node.asInt() : null;
      case STRING:
        if (!node.isTextual() || (isMax && node.asText().length() >= STRING_STATS_PREFIX)) {
          return null;
        }
        return node.asText();
      case DATE:
        try {
          return node.isTextual() ? LocalDate.parse(node.asText()) : null;
        } catch (RuntimeException e) {
          return null;
        }
      default:
        return null;
    }
  }

  /** A partition value text as a normalized key value, or null if not compared here. */
  private static Object parseValue(ColumnType type, String text) {
    try {
      switch (type.kind()) {
        case LONG:
          return Long.parseLong(text);
        case INT:
          return Integer.parseInt(text);
        case STRING:
          return text;
        case DATE:
          return LocalDate.parse(text);
        case BOOLEAN:
          return Boolean.parseBoolean(text);
        default:
          return null;
      }
    } catch (RuntimeException e) {
      return null;
    }
  }
}
