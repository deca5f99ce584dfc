package io.lakestream.connectors.delta.filter;

import io.delta.kernel.types.StructField;
import io.lakestream.connectors.delta.filter.DeltaFilter.Comparison;
import io.lakestream.connectors.delta.filter.DeltaFilter.In;
import io.lakestream.connectors.delta.filter.DeltaFilter.NullTest;
import io.lakestream.connectors.delta.filter.DeltaFilter.Operator;

/**
 * Data skipping: a filter on a data column checked against the file's statistics, as Delta does: a
 * comparison may match when the value range {@code [min, max]} allows it, {@code IS NULL} when the
 * column has nulls, {@code IS NOT NULL} when it has values. Unknown statistics keep the file; a
 * file of no rows, or of only nulls in the column for a comparison, is skipped.
 */
record StatsTest(StructField column, DeltaFilter leaf) implements FileTest {

  @Override
  public boolean mayMatch(DataFileFacts file) {
    FileStats stats = file.stats();
    if (leaf instanceof NullTest test) {
      return test.isNull() ? mayHaveNulls(stats) : mayHaveValues(stats);
    }
    if (stats.noValuesIn(column)) {
      return false;
    }
    Object min = stats.min(column);
    Object max = stats.max(column);
    if (min == null || max == null || FilterValues.isNaN(min) || FilterValues.isNaN(max)) {
      return true;
    }
    if (leaf instanceof Comparison c) {
      return inRange(c.operator(), c.value(), min, max);
    }
    return ((In) leaf).values().stream().anyMatch(v -> inRange(Operator.EQUAL, v, min, max));
  }

  private boolean mayHaveNulls(FileStats stats) {
    Long nulls = stats.nullCount(column);
    Long rows = stats.numRecords();
    return rows == null ? nulls == null || nulls > 0 : rows > 0 && (nulls == null || nulls > 0);
  }

  private boolean mayHaveValues(FileStats stats) {
    Long nulls = stats.nullCount(column);
    Long rows = stats.numRecords();
    return rows == null || nulls == null || nulls < rows;
  }

  /** Whether some value in {@code [min, max]} may satisfy {@code x op value}. */
  private static boolean inRange(Operator op, Object value, Object min, Object max) {
    if (FilterValues.isNaN(value)) {
      return true;
    }
    return switch (op) {
      case EQUAL -> FilterValues.compare(min, value) <= 0 && FilterValues.compare(max, value) >= 0;
      case NOT_EQUAL ->
          min instanceof Double
              || min instanceof Float
              || FilterValues.compare(min, value) != 0
              || FilterValues.compare(max, value) != 0;
      case LESS_THAN -> FilterValues.compare(min, value) < 0;
      case LESS_THAN_OR_EQUAL -> FilterValues.compare(min, value) <= 0;
      case GREATER_THAN -> FilterValues.compare(max, value) > 0;
      case GREATER_THAN_OR_EQUAL -> FilterValues.compare(max, value) >= 0;
    };
  }
}
