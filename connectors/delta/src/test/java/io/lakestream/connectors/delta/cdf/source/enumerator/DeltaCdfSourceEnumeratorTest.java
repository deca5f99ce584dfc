package io.lakestream.connectors.delta.cdf.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.KernelChangeCommits;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.source.EpochPositions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Admission order, epoch limits, restore within a version, and the availableNow end. */
class DeltaCdfSourceEnumeratorTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;
  private DeltaTable table;
  private long compacted;

  @BeforeEach
  void setUp() throws IOException {
    table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    for (int v = 1; v <= 3; v++) {
      // two partitions: two change files per version
      commit.commit(
          v,
          writer.write(
              List.<Object[]>of(new Object[] {(long) v, "a"}, new Object[] {(long) -v, "b"})));
    }
    compacted = KernelChangeCommits.compact(table, SCHEMA); // version 4: no change files
  }

  private DeltaCdfSourceEnumerator enumerator(
      MockSplitEnumeratorContext<DeltaCdfSplit> context,
      DeltaCdfEnumeratorState state,
      int maxFiles,
      long endVersion)
      throws IOException {
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaCdfSourceEnumerator enumerator =
        new DeltaCdfSourceEnumerator(
            context,
            state,
            new DeltaChangeLog(table, schema),
            new DeltaSourceLimits(maxFiles, 0, false, 1_000, endVersion, false),
            new EpochPositions(null, "src"));
    enumerator.start();
    return enumerator;
  }

  private static MockSplitEnumeratorContext<DeltaCdfSplit> context() {
    MockSplitEnumeratorContext<DeltaCdfSplit> context = new MockSplitEnumeratorContext<>(2);
    context.registerReader(new ReaderInfo(0, "localhost"));
    context.registerReader(new ReaderInfo(1, "localhost"));
    return context;
  }

  private static List<String> assigned(MockSplitEnumeratorContext<DeltaCdfSplit> context)
      throws Exception {
    context.getSentSourceEvent(); // runs what is queued in the coordinator thread
    while (true) {
      try {
        List<String> ids = new ArrayList<>();
        for (SplitsAssignment<DeltaCdfSplit> a : context.getSplitsAssignmentSequence()) {
          a.assignment().values().forEach(splits -> splits.forEach(s -> ids.add(s.splitId())));
        }
        return ids;
      } catch (java.util.ConcurrentModificationException e) {
        // the mock's coordinator thread assigned splits while they were read: read again
      }
    }
  }

  @Test
  void admitsAtMostMaxFilesPerEpochAndResumesWithinAVersion() throws Throwable {
    MockSplitEnumeratorContext<DeltaCdfSplit> context = context();
    DeltaCdfSourceEnumerator enumerator =
        enumerator(context, DeltaCdfEnumeratorState.startingAt(1), 3, -1);
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0); // discovery
    assertThat(assigned(context)).containsExactly("cdf-1-0", "cdf-1-1");
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    assertThat(assigned(context)).containsExactly("cdf-1-0", "cdf-1-1", "cdf-2-0"); // 3 per epoch

    DeltaCdfEnumeratorState checkpoint = enumerator.snapshotState(1);
    assertThat(checkpoint)
        .isEqualTo(
            new DeltaCdfEnumeratorState(2, 1, List.of(), 3, DeltaCdfEnumeratorState.NO_SNAPSHOT));

    // restore: continues with version 2's second file, nothing is admitted twice
    MockSplitEnumeratorContext<DeltaCdfSplit> restored = context();
    DeltaCdfSourceEnumerator again = enumerator(restored, checkpoint, 10, -1);
    again.handleSplitRequest(0, "localhost");
    again.handleSplitRequest(1, "localhost");
    restored.runPeriodicCallable(0);
    again.handleSplitRequest(0, "localhost");
    again.handleSplitRequest(1, "localhost");
    // version 4 (compaction) has no change files
    assertThat(assigned(restored)).containsExactly("cdf-2-1", "cdf-3-0", "cdf-3-1");
    for (SplitsAssignment<DeltaCdfSplit> a : restored.getSplitsAssignmentSequence()) {
      a.assignment()
          .values()
          .forEach(
              splits ->
                  splits.forEach(
                      s -> assertThat(s.file().kind()).isEqualTo(DeltaChangeFile.Kind.ADD)));
    }
  }

  /**
   * Without startingVersion: the data files of the snapshot come first, as inserts of its version
   * (the snapshot of version 3 holds the six files versions 1-3 added), then the changes of later
   * versions; a restore in the middle of the snapshot continues within it.
   */
  @Test
  void aSnapshotStartAdmitsTheSnapshotsFilesThenLaterChangesAndResumesWithinIt() throws Throwable {
    MockSplitEnumeratorContext<DeltaCdfSplit> context = context();
    DeltaCdfSourceEnumerator enumerator =
        enumerator(context, DeltaCdfEnumeratorState.startingWithSnapshotOf(3), 4, -1);
    for (int round = 0; round < 3; round++) {
      enumerator.handleSplitRequest(0, "localhost");
      enumerator.handleSplitRequest(1, "localhost");
      context.runPeriodicCallable(0);
    }
    assertThat(assigned(context)).containsExactly("cdf-3-0", "cdf-3-1", "cdf-3-2", "cdf-3-3");
    long commitTimestamp =
        new DeltaChangeLog(table, table.latestSnapshot().orElseThrow().getSchema().toJson())
            .changeFiles(3, 3)
            .get(0)
            .commitTimestamp();
    for (SplitsAssignment<DeltaCdfSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment()
          .values()
          .forEach(
              splits ->
                  splits.forEach(
                      s -> {
                        assertThat(s.file().kind()).isEqualTo(DeltaChangeFile.Kind.ADD);
                        assertThat(s.file().version()).isEqualTo(3);
                        assertThat(s.file().commitTimestamp()).isEqualTo(commitTimestamp);
                      }));
    }
    DeltaCdfEnumeratorState checkpoint = enumerator.snapshotState(1);
    assertThat(checkpoint).isEqualTo(new DeltaCdfEnumeratorState(3, 4, List.of(), 4, 3));

    // a version committed after the snapshot, then a restore from the checkpoint
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    commit.commit(
        9,
        new DeltaTableWriter(table, SCHEMA)
            .write(List.<Object[]>of(new Object[] {100L, "a"}, new Object[] {-100L, "b"})));
    MockSplitEnumeratorContext<DeltaCdfSplit> restored = context();
    DeltaCdfSourceEnumerator again = enumerator(restored, checkpoint, 10, -1);
    for (int round = 0; round < 3; round++) {
      again.handleSplitRequest(0, "localhost");
      again.handleSplitRequest(1, "localhost");
      restored.runPeriodicCallable(0);
    }
    // the rest of the snapshot; version 4 (compaction) has no change files; then version 5
    assertThat(assigned(restored)).containsExactly("cdf-3-4", "cdf-3-5", "cdf-5-0", "cdf-5-1");
    assertThat(again.snapshotState(2))
        .isEqualTo(new DeltaCdfEnumeratorState(5, 2, List.of(), 8, 3));
  }

  @Test
  void availableNowAdmitsNothingAfterTheEndVersion() throws Throwable {
    MockSplitEnumeratorContext<DeltaCdfSplit> context = context();
    DeltaCdfSourceEnumerator enumerator =
        enumerator(context, DeltaCdfEnumeratorState.startingAt(2), 10, 2);
    for (int round = 0; round < 3; round++) {
      enumerator.handleSplitRequest(0, "localhost");
      enumerator.handleSplitRequest(1, "localhost");
      context.runPeriodicCallable(0);
    }
    assertThat(assigned(context)).containsExactly("cdf-2-0", "cdf-2-1");
    assertThat(compacted).isEqualTo(4);
  }
}
