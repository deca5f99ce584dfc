package io.lakestream.connectors.delta.filter;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.delta.kernel.types.StructField;
import java.io.IOException;

/**
 * The statistics of a data file's {@code add} action ({@code numRecords}, {@code minValues}, {@code
 * maxValues}, {@code nullCount} per column), parsed once. Anything missing or unreadable reads as
 * unknown (null), never as a value, so a file without usable statistics is kept.
 */
final class FileStats {
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build();

  private final JsonNode root;

  private FileStats(JsonNode root) {
    this.root = root;
  }

  /** The statistics in {@code json} (null or empty: none). */
  static FileStats parse(String json) {
    if (json == null || json.isEmpty()) {
      return new FileStats(MissingNode.getInstance());
    }
    try {
      return new FileStats(JSON.readTree(json));
    } catch (IOException e) {
      return new FileStats(MissingNode.getInstance());
    }
  }

  /** The file's row count, or null. */
  Long numRecords() {
    return count(root.path("numRecords"));
  }

  /** The nulls in {@code column}, or null. */
  Long nullCount(StructField column) {
    return count(root.path("nullCount").path(column.getName()));
  }

  /** The least non-null value of {@code column} (or a value below it), or null. */
  Object min(StructField column) {
    return FilterValues.statistic(
        root.path("minValues").path(column.getName()), column.getDataType(), -1);
  }

  /** The greatest non-null value of {@code column} (or a value above it), or null. */
  Object max(StructField column) {
    return FilterValues.statistic(
        root.path("maxValues").path(column.getName()), column.getDataType(), 1);
  }

  /** Whether the file holds no rows, or only nulls in {@code column}. */
  boolean noValuesIn(StructField column) {
    Long rows = numRecords();
    Long nulls = nullCount(column);
    return rows != null && (rows == 0 || rows.equals(nulls));
  }

  private static Long count(JsonNode node) {
    return node.isIntegralNumber() && node.canConvertToLong() ? node.longValue() : null;
  }
}
