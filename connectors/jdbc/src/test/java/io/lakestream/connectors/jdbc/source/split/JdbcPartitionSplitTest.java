package io.lakestream.connectors.jdbc.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Partitions are cut as Spark's JDBCRelation.columnPartition cuts them. */
class JdbcPartitionSplitTest {

  @Test
  void cutsStridesLikeSpark() {
    // Spark: lowerBound 0, upperBound 100, numPartitions 4 -> stride 25
    List<String> conditions =
        JdbcPartitionSplit.of(0, 100, 4).stream().map(s -> s.condition("id")).toList();
    assertThat(conditions)
        .containsExactly(
            "id < 25 OR id IS NULL", "id >= 25 AND id < 50", "id >= 50 AND id < 75", "id >= 75");
  }

  @Test
  void strideUsesSparksIntegerDivisions() {
    // stride = upper/n - lower/n = 10/3 - 1/3 = 3
    assertThat(JdbcPartitionSplit.of(1, 10, 3).stream().map(s -> s.condition("k")).toList())
        .containsExactly("k < 4 OR k IS NULL", "k >= 4 AND k < 7", "k >= 7");
  }

  @Test
  void fewerPartitionsThanValuesInTheRange() {
    assertThat(JdbcPartitionSplit.of(5, 7, 10)).hasSize(2);
    assertThat(JdbcPartitionSplit.of(5, 5, 10)).containsExactly(new JdbcPartitionSplit(0, 1, 0, 0));
    assertThat(JdbcPartitionSplit.of(5, 50, 1).get(0).condition("id")).isNull();
  }

  @Test
  void refusesInvertedBounds() {
    assertThatThrownBy(() -> JdbcPartitionSplit.of(10, 1, 2))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
