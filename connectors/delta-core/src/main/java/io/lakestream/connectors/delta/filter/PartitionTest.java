package io.lakestream.connectors.delta.filter;

import io.delta.kernel.types.StructField;
import io.lakestream.connectors.delta.DeltaPartitionValues;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.filter.DeltaFilter.Comparison;
import io.lakestream.connectors.delta.filter.DeltaFilter.In;
import io.lakestream.connectors.delta.filter.DeltaFilter.NullTest;

/**
 * Partition pruning: a filter on a partition column evaluated exactly on the file's partition
 * value, which every row of the file has. A value that cannot be parsed keeps the file (reading it
 * then fails naming the value).
 */
record PartitionTest(StructField column, DeltaFilter leaf) implements FileTest {

  @Override
  public boolean mayMatch(DataFileFacts file) {
    Object value;
    try {
      value = DeltaPartitionValues.parse(column, file.partitionValue(column.getName()), "");
    } catch (DeltaTableException e) {
      return true;
    }
    return matches(value);
  }

  private boolean matches(Object value) {
    if (leaf instanceof NullTest test) {
      return test.isNull() == (value == null);
    }
    if (value == null) {
      return false;
    }
    if (leaf instanceof Comparison c) {
      return holds(c.operator(), value, c.value());
    }
    return ((In) leaf).values().stream().anyMatch(v -> holds(DeltaFilter.Operator.EQUAL, value, v));
  }

  /** SQL comparison: NaN is unequal to everything, and neither below nor above anything. */
  private static boolean holds(DeltaFilter.Operator operator, Object value, Object literal) {
    if (FilterValues.isNaN(value) || FilterValues.isNaN(literal)) {
      return operator == DeltaFilter.Operator.NOT_EQUAL;
    }
    return operator.holds(FilterValues.compare(value, literal));
  }
}
