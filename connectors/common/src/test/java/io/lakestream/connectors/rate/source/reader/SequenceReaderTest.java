package io.lakestream.connectors.rate.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.ReplayAlignmentException;
import io.lakestream.connectors.source.ReplayedEpochs;
import io.lakestream.connectors.source.SplitCaughtUp;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.ReplayPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SequenceReaderTest {
  private static final GeneratorFunction<Long, Long> IDENTITY = index -> index;
  private static final int MAX_POLLS = 10_000;
  private static final ReplayedEpochs NO_REPLAY = new ReplayedEpochs(ReplayPlan.NONE, "numbers");

  private final TestingReaderContext context = new TestingReaderContext();
  private final TestingReaderOutput<Long> output = new TestingReaderOutput<>();

  /** A reader without a rows-per-second limit. */
  private SequenceReader<Long> reader(long rows, int partitions, long maxRowsPerTrigger) {
    SequenceReader<Long> reader =
        new SequenceReader<>(
            context, IDENTITY, rows, partitions, 0, maxRowsPerTrigger, false, NO_REPLAY, 1);
    reader.start();
    return reader;
  }

  private static List<SequenceSplit> splits(int... partitions) {
    List<SequenceSplit> splits = new ArrayList<>();
    for (int p : partitions) {
      splits.add(new SequenceSplit(p, 0));
    }
    return splits;
  }

  /** Polls until the reader has nothing available; returns the rows emitted by these polls. */
  private List<Long> drain(SourceReader<Long, SequenceSplit> reader) throws Exception {
    int before = output.getEmittedRecords().size();
    for (int i = 0; i < MAX_POLLS; i++) {
      if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
        return new ArrayList<>(
            output.getEmittedRecords().subList(before, output.getEmittedRecords().size()));
      }
    }
    throw new AssertionError("reader never ran out of rows");
  }

  private List<String> caughtUpEvents() {
    List<String> ids = new ArrayList<>();
    for (SourceEvent event : context.getSentEvents()) {
      if (event instanceof SplitCaughtUp caughtUp) {
        ids.add(caughtUp.splitId());
      }
    }
    return ids;
  }

  private List<PositionReport> positionReports() {
    List<PositionReport> reports = new ArrayList<>();
    for (SourceEvent event : context.getSentEvents()) {
      if (event instanceof PositionReport report) {
        reports.add(report);
      }
    }
    return reports;
  }

  private static QueryContext query(boolean availableNow, boolean ignoreRateLimits) {
    return new QueryContext(
        "q-1",
        "orders",
        "run-1",
        "orders-q-1",
        "file:///tmp/unused-checkpoint-location",
        availableNow,
        ignoreRateLimits,
        OutputMode.APPEND);
  }

  @Test
  void readerWithoutSplitsHasNothingAvailable() throws Exception {
    SequenceReader<Long> reader = reader(10, 2, 0);

    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(reader.isAvailable()).isNotDone();
    assertThat(context.getSentEvents()).isEmpty();
  }

  @Test
  void rowsAreGeneratedRoundRobinOverItsPartitions() throws Exception {
    // 3 partitions, this reader owns 0 and 2 (as subtask 0 of 2)
    SequenceReader<Long> reader = reader(12, 3, 0);
    reader.addSplits(splits(0, 2));

    assertThat(reader.isAvailable()).isDone();
    assertThat(drain(reader)).containsExactly(0L, 2L, 3L, 5L, 6L, 8L, 9L, 11L);
  }

  @Test
  void rowsContinueFromRestoredOffsets() throws Exception {
    SequenceReader<Long> reader = reader(12, 3, 0);
    reader.addSplits(List.of(new SequenceSplit(1, 2), new SequenceSplit(0, 3)));

    // p1 offsets 2,3 = rows 7,10; p0 offset 3 = row 9
    assertThat(drain(reader)).containsExactly(7L, 9L, 10L);
  }

  @Test
  void generatorReceivesRowIndexes() throws Exception {
    SequenceReader<String> reader =
        new SequenceReader<>(context, index -> "row-" + index, 4, 2, 0, 0, false, NO_REPLAY, 1);
    reader.start();
    TestingReaderOutput<String> strings = new TestingReaderOutput<>();
    reader.addSplits(splits(0, 1));

    while (reader.pollNext(strings) == InputStatus.MORE_AVAILABLE) {}

    assertThat(strings.getEmittedRecords()).containsExactly("row-0", "row-1", "row-2", "row-3");
  }

  @Test
  void stopsAtEndOffsetAndReportsEachSplitCaughtUpOnce() throws Exception {
    // rows 0..9 over 3 partitions: ends 4, 3, 3
    SequenceReader<Long> reader = reader(10, 3, 0);
    reader.addSplits(splits(0, 1, 2));

    assertThat(drain(reader)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    for (int i = 0; i < 5; i++) {
      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    }
    reader.snapshotState(1);
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);

    assertThat(output.getEmittedRecords()).hasSize(10);
    assertThat(caughtUpEvents())
        .containsExactlyInAnyOrder("partition-0", "partition-1", "partition-2");
  }

  @Test
  void splitIsReportedCaughtUpAsSoonAsItsLastRowIsEmitted() throws Exception {
    SequenceReader<Long> reader = reader(3, 3, 0); // one row per partition
    reader.addSplits(splits(0, 1));

    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
    assertThat(caughtUpEvents()).containsExactly("partition-0");
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
    assertThat(caughtUpEvents()).containsExactly("partition-0", "partition-1");
  }

  @Test
  void splitWithoutRowsIsReportedCaughtUpWithoutEmitting() throws Exception {
    SequenceReader<Long> reader = reader(2, 4, 0); // partitions 2 and 3 hold no rows
    reader.addSplits(splits(3));

    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(output.getEmittedRecords()).isEmpty();
    assertThat(caughtUpEvents()).containsExactly("partition-3");
  }

  @Test
  void restoredSplitAlreadyAtItsEndIsReportedCaughtUp() throws Exception {
    SequenceReader<Long> reader = reader(10, 2, 0);
    reader.addSplits(List.of(new SequenceSplit(0, 5), new SequenceSplit(1, 3)));

    assertThat(drain(reader)).containsExactly(7L, 9L);
    assertThat(caughtUpEvents()).containsExactlyInAnyOrder("partition-0", "partition-1");
  }

  @Test
  void unboundedSourceNeverCatchesUp() throws Exception {
    SequenceReader<Long> reader = reader(Long.MAX_VALUE, 2, 0);
    reader.addSplits(splits(0, 1));

    for (int i = 0; i < 1000; i++) {
      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
    }
    assertThat(output.getEmittedRecords()).hasSize(1000).endsWith(999L);
    assertThat(caughtUpEvents()).isEmpty();
  }

  @Test
  void maxRowsPerTriggerLimitsRowsBetweenSnapshotsAndResetsAtSnapshot() throws Exception {
    SequenceReader<Long> reader = reader(100, 2, 10);
    reader.addSplits(splits(0, 1)); // owns all partitions: share = 10

    assertThat(drain(reader)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(reader.isAvailable()).isNotDone();
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);

    reader.snapshotState(1);

    assertThat(reader.isAvailable()).isDone();
    assertThat(drain(reader)).containsExactly(10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
    reader.snapshotState(2);
    assertThat(drain(reader)).hasSize(10).startsWith(20L);
  }

  @Test
  void maxRowsPerTriggerIsSharedByPartitionsOwned() throws Exception {
    // 4 partitions, maxRowsPerTrigger 10: a reader owning 1 partition may read ceil(2.5) = 3
    SequenceReader<Long> one = reader(100, 4, 10);
    one.addSplits(splits(1));
    assertThat(drain(one)).containsExactly(1L, 5L, 9L);

    // a reader owning 2 of 4 partitions may read 5
    TestingReaderContext otherContext = new TestingReaderContext();
    SequenceReader<Long> two =
        new SequenceReader<>(otherContext, IDENTITY, 100, 4, 0, 10, false, NO_REPLAY, 1);
    two.start();
    two.addSplits(splits(0, 2));
    assertThat(drain(two)).containsExactly(0L, 2L, 4L, 6L, 8L);
  }

  @Test
  void maxRowsPerTriggerStillStopsAtTheEnd() throws Exception {
    SequenceReader<Long> reader = reader(5, 1, 3);
    reader.addSplits(splits(0));

    assertThat(drain(reader)).containsExactly(0L, 1L, 2L);
    assertThat(caughtUpEvents()).isEmpty();
    reader.snapshotState(1);
    assertThat(drain(reader)).containsExactly(3L, 4L);
    assertThat(caughtUpEvents()).containsExactly("partition-0");
    reader.snapshotState(2);
    assertThat(drain(reader)).isEmpty();
  }

  @Test
  void snapshotStateReturnsPositionsAndReportsThem() throws Exception {
    SequenceReader<Long> reader = reader(100, 3, 0);
    reader.addSplits(List.of(new SequenceSplit(0, 0), new SequenceSplit(2, 10)));
    for (int i = 0; i < 5; i++) {
      reader.pollNext(output); // p0, p2, p0, p2, p0
    }

    List<SequenceSplit> state = reader.snapshotState(7);

    assertThat(state)
        .containsExactlyInAnyOrder(new SequenceSplit(0, 3, 7), new SequenceSplit(2, 12, 7));
    assertThat(positionReports())
        .containsExactly(new PositionReport(7, Map.of("partition-0", 3L, "partition-2", 12L)));
  }

  @Test
  void snapshotOfReaderWithoutSplitsReportsNoPositions() throws Exception {
    SequenceReader<Long> reader = reader(100, 3, 0);

    assertThat(reader.snapshotState(3)).isEmpty();
    assertThat(positionReports()).containsExactly(new PositionReport(3, Map.of()));
  }

  @Test
  void restoringFromSnapshotContinuesWithoutGapsOrDuplicates() throws Exception {
    SequenceReader<Long> first = reader(20, 2, 0);
    first.addSplits(splits(0, 1));
    for (int i = 0; i < 7; i++) {
      first.pollNext(output);
    }
    List<SequenceSplit> state = first.snapshotState(1);

    SequenceReader<Long> second = reader(20, 2, 0);
    second.addSplits(state);
    drain(second);

    assertThat(output.getEmittedRecords()).containsExactlyInAnyOrderElementsOf(range(20));
  }

  @Test
  void aPollEmitsSeveralRowsOfOnePartition() throws Exception {
    SequenceReader<Long> reader =
        new SequenceReader<>(context, IDENTITY, 1_000, 2, 0, 0, false, NO_REPLAY, 64);
    reader.start();
    reader.addSplits(splits(0, 1));

    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
    assertThat(output.getEmittedRecords()).hasSize(64).allMatch(row -> row % 2 == 0);
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
    assertThat(output.getEmittedRecords().subList(64, 128)).allMatch(row -> row % 2 == 1);
    List<Long> all = new ArrayList<>(output.getEmittedRecords());
    all.addAll(drain(reader));
    assertThat(all).hasSize(1_000).doesNotHaveDuplicates();
    for (int p = 0; p < 2; p++) { // each partition's rows in order
      int partition = p;
      assertThat(all.stream().filter(row -> row % 2 == partition).toList()).isSorted();
    }
    assertThat(caughtUpEvents()).containsExactlyInAnyOrder("partition-0", "partition-1");
  }

  @Test
  void underMaxRowsPerTriggerPartitionsTakeTurnsRowByRow() throws Exception {
    SequenceReader<Long> reader =
        new SequenceReader<>(context, IDENTITY, 1_000, 2, 0, 6, false, NO_REPLAY, 64);
    reader.start();
    reader.addSplits(splits(0, 1));
    assertThat(drain(reader)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aPollStaysWithinTheRowsPerSecondAllowance() throws Exception {
    SequenceReader<Long> reader =
        new SequenceReader<>(context, IDENTITY, 100, 1, 1, 0, false, NO_REPLAY, 64);
    reader.start();
    reader.addSplits(splits(0));
    reader.pollNext(output);
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(output.getEmittedRecords()).hasSizeBetween(1, 2); // 1 row/s: the first allowance
  }

  @Test
  void rowsPerSecondThrottlesTheReader() throws Exception {
    SequenceReader<Long> reader =
        new SequenceReader<>(context, IDENTITY, 100, 1, 1, 0, false, NO_REPLAY, 1);
    reader.start();
    reader.addSplits(splits(0));

    InputStatus status = InputStatus.MORE_AVAILABLE;
    for (int i = 0; i < 10 && status == InputStatus.MORE_AVAILABLE; i++) {
      status = reader.pollNext(output);
    }

    // 1 row per second: at most the initial allowance, then it waits
    assertThat(status).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(reader.isAvailable()).isNotDone();
    assertThat(output.getEmittedRecords()).isNotEmpty().hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void queryWithIgnoreRateLimitsIgnoresMaxRowsPerTriggerAndRowsPerSecond() throws Exception {
    SourceReader<Long, SequenceSplit> reader =
        RateSourceBuilder.rate("rate-src", IDENTITY, Types.LONG)
            .rows(50)
            .numPartitions(2)
            .rowsPerSecond(1)
            .maxRowsPerTrigger(5)
            .query(query(true, true))
            .build()
            .createReader(context);
    reader.start();
    reader.addSplits(splits(0, 1));

    assertThat(drain(reader)).containsExactlyInAnyOrderElementsOf(range(50));
    assertThat(caughtUpEvents()).containsExactlyInAnyOrder("partition-0", "partition-1");
  }

  @Test
  void queryWithoutIgnoreRateLimitsHonoursMaxRowsPerTrigger() throws Exception {
    SourceReader<Long, SequenceSplit> reader =
        RateSourceBuilder.rate("rate-src", IDENTITY, Types.LONG)
            .rows(50)
            .numPartitions(2)
            .rowsPerSecond(0)
            .maxRowsPerTrigger(5)
            .query(query(true, false))
            .build()
            .createReader(context);
    reader.start();
    reader.addSplits(splits(0, 1));

    assertThat(drain(reader)).containsExactly(0L, 1L, 2L, 3L, 4L);
  }

  @Test
  void notifyNoMoreSplitsWakesUpReaderWithoutSplits() throws Exception {
    SequenceReader<Long> reader = reader(10, 2, 0);
    reader.pollNext(output);
    assertThat(reader.isAvailable()).isNotDone();

    reader.notifyNoMoreSplits();

    assertThat(reader.isAvailable()).isDone();
  }

  private static List<Long> range(long n) {
    List<Long> values = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      values.add(i);
    }
    return values;
  }

  /**
   * Restored at epoch 5; the abandoned run completed epochs 6 and 8 (7 failed) and its sink last
   * committed 8. Replayed epochs end where the originals did, 7 taking what original 8 held.
   */
  private ReplayPlan rewindPlan(Path dir) throws Exception {
    EpochLog log = new CheckpointLocation(dir.toUri()).epochs();
    log.writeOffsets(6, "numbers", offsets(15, 12));
    log.writeOffsets(8, "numbers", offsets(20, 20));
    log.writeCommit(6, "sink", Map.of("epoch", 6));
    log.writeCommit(8, "sink", Map.of("epoch", 8));
    return log.replayPlan(5, 8);
  }

  private static Map<String, Object> offsets(long p0, long p1) {
    return Map.of("source", "numbers", "offsets", Map.of("partition-0", p0, "partition-1", p1));
  }

  private SequenceReader<Long> restoredReader(ReplayPlan plan) {
    SequenceReader<Long> reader =
        new SequenceReader<>(
            context, IDENTITY, 100, 2, 0, 1, false, new ReplayedEpochs(plan, "numbers"), 1);
    reader.start();
    reader.addSplits(List.of(new SequenceSplit(0, 10, 5), new SequenceSplit(1, 10, 5)));
    return reader;
  }

  @Test
  void replaysCommittedEpochsExactlyThenContinuesWithRateLimits(@TempDir Path dir)
      throws Exception {
    SequenceReader<Long> reader = restoredReader(rewindPlan(dir));

    // epoch 6: p0 offsets 10..14 (rows 20,22,..,28), p1 offsets 10..11 (rows 21,23), in one poll,
    // ignoring maxRowsPerTrigger=1; then nothing until the checkpoint
    assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(output.getEmittedRecords()).containsExactly(20L, 22L, 24L, 26L, 28L, 21L, 23L);
    assertThat(drain(reader)).isEmpty();
    reader.snapshotState(6);
    // epoch 7 (failed originally): up to original epoch 8's end
    assertThat(drain(reader)).hasSize(5 + 8);
    reader.snapshotState(7);
    assertThat(drain(reader)).isEmpty();
    assertThat(reader.snapshotState(8))
        .containsExactlyInAnyOrder(new SequenceSplit(0, 20, 8), new SequenceSplit(1, 20, 8));
    // replay over: maxRowsPerTrigger=1 applies again
    assertThat(drain(reader)).containsExactly(40L);
  }

  @Test
  void skippingTheCommittedEpochFailsInsteadOfDuplicating(@TempDir Path dir) throws Exception {
    SequenceReader<Long> reader = restoredReader(rewindPlan(dir));
    drain(reader);
    reader.snapshotState(6);
    drain(reader);

    assertThatThrownBy(() -> reader.snapshotState(9))
        .isInstanceOf(ReplayAlignmentException.class)
        .hasMessageContaining("could not replay epoch 8")
        .hasMessageContaining("checkpoint 8 was skipped")
        .hasMessageContaining("restore the same snapshot again")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("SOURCE_REPLAY_MISALIGNED");
  }

  @Test
  void aPlanWithoutTheCommittedEpochsPositionsIsRefused(@TempDir Path dir) throws Exception {
    EpochLog log = new CheckpointLocation(dir.toUri()).epochs();
    log.writeOffsets(6, "numbers", offsets(15, 12));
    log.writeCommit(8, "sink", Map.of("epoch", 8));

    assertThatThrownBy(() -> log.replayPlan(5, 8))
        .isInstanceOf(io.lakestream.state.checkpoint.ReplayNotPossibleException.class)
        .hasMessageContaining("Cannot restore epoch 5 exactly once")
        .hasMessageContaining("offsets/8")
        .hasMessageContaining("Restore the newest snapshot instead")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("REPLAY_NOT_POSSIBLE");
  }
}
