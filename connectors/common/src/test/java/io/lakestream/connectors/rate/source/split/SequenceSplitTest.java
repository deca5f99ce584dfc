package io.lakestream.connectors.rate.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequenceSplitTest {

  @Test
  void splitIdNamesThePartition() {
    assertThat(new SequenceSplit(3, 17).splitId()).isEqualTo("partition-3");
  }

  @Test
  void rowIndexInterleavesPartitions() {
    // 3 partitions: p0 = 0,3,6,...  p1 = 1,4,7,...  p2 = 2,5,8,...
    assertThat(SequenceSplit.rowIndex(0, 0, 3)).isZero();
    assertThat(SequenceSplit.rowIndex(0, 2, 3)).isEqualTo(2);
    assertThat(SequenceSplit.rowIndex(1, 0, 3)).isEqualTo(3);
    assertThat(SequenceSplit.rowIndex(4, 1, 3)).isEqualTo(13);
    assertThat(SequenceSplit.rowIndex(5, 0, 1)).isEqualTo(5);
  }

  @Test
  void endOffsetCountsRowsOfThePartition() {
    // rows 0..9 over 3 partitions: p0 {0,3,6,9}, p1 {1,4,7}, p2 {2,5,8}
    assertThat(SequenceSplit.endOffset(10, 0, 3)).isEqualTo(4);
    assertThat(SequenceSplit.endOffset(10, 1, 3)).isEqualTo(3);
    assertThat(SequenceSplit.endOffset(10, 2, 3)).isEqualTo(3);
    assertThat(SequenceSplit.endOffset(9, 0, 3)).isEqualTo(3);
    assertThat(SequenceSplit.endOffset(7, 0, 1)).isEqualTo(7);
  }

  @Test
  void endOffsetIsZeroWhenRowsDoNotReachThePartition() {
    assertThat(SequenceSplit.endOffset(0, 0, 4)).isZero();
    assertThat(SequenceSplit.endOffset(2, 2, 4)).isZero();
    assertThat(SequenceSplit.endOffset(2, 3, 4)).isZero();
    assertThat(SequenceSplit.endOffset(3, 2, 4)).isEqualTo(1);
  }

  @Test
  void endOffsetOfUnboundedSourceIsUnbounded() {
    assertThat(SequenceSplit.endOffset(Long.MAX_VALUE, 0, 4)).isEqualTo(Long.MAX_VALUE);
    assertThat(SequenceSplit.endOffset(Long.MAX_VALUE, 3, 4)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void endOffsetsOfAllPartitionsAddUpToRowsAndBoundTheRowIndexes() {
    for (int partitions = 1; partitions <= 6; partitions++) {
      for (long rows = 0; rows <= 40; rows++) {
        long total = 0;
        for (int p = 0; p < partitions; p++) {
          long end = SequenceSplit.endOffset(rows, p, partitions);
          total += end;
          if (end > 0) {
            assertThat(SequenceSplit.rowIndex(end - 1, p, partitions)).isLessThan(rows);
          }
          assertThat(SequenceSplit.rowIndex(end, p, partitions)).isGreaterThanOrEqualTo(rows);
        }
        assertThat(total).as("rows=%d partitions=%d", rows, partitions).isEqualTo(rows);
      }
    }
  }

  @Test
  void endOffsetNearLongMaxValueDoesNotOverflow() {
    long rows = Long.MAX_VALUE - 1;

    long total = 0;
    for (int p = 0; p < 4; p++) {
      long end = SequenceSplit.endOffset(rows, p, 4);
      assertThat(end).as("partition %d", p).isPositive();
      total += end;
    }
    assertThat(total).isEqualTo(rows);
    assertThat(SequenceSplit.endOffset(rows, 0, 4)).isEqualTo(Long.MAX_VALUE / 4 + 1);
  }
}
