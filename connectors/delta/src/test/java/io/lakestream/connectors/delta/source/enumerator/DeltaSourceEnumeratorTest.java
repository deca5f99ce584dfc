package io.lakestream.connectors.delta.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaChangeCommitException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.KernelChangeCommits;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.source.EpochPositions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Admission, epoch limits, restore and change-commit deferral of the enumerator. */
class DeltaSourceEnumeratorTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;
  private DeltaTable table;
  private DeltaAppendCommit commit;
  private DeltaTableWriter writer;

  @BeforeEach
  void setUp() throws IOException {
    table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    writer = new DeltaTableWriter(table, SCHEMA);
    for (int v = 1; v <= 5; v++) {
      append(v);
    }
  }

  private void append(int epoch) throws IOException {
    commit.commit(epoch, writer.write(List.<Object[]>of(new Object[] {(long) epoch, "x"})));
  }

  private DeltaSourceEnumerator enumerator(
      MockSplitEnumeratorContext<DeltaSourceSplit> context,
      DeltaEnumeratorState state,
      int maxFiles,
      long maxBytes)
      throws IOException {
    return enumerator(context, state, maxFiles, maxBytes, null);
  }

  private DeltaSourceEnumerator enumerator(
      MockSplitEnumeratorContext<DeltaSourceSplit> context,
      DeltaEnumeratorState state,
      int maxFiles,
      long maxBytes,
      DeltaFilter filter)
      throws IOException {
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    String schema = snapshot.getSchema().toJson();
    DeltaFileSkipping skipping =
        DeltaFileSkipping.of(filter, snapshot.getSchema(), List.of(), table.path());
    DeltaSourceEnumerator enumerator =
        new DeltaSourceEnumerator(
            context,
            state,
            new DeltaTableChanges(table, schema, false, false, skipping),
            new DeltaSourceLimits(maxFiles, maxBytes, false, 1_000, -1, false),
            new EpochPositions(null, "src"));
    enumerator.start();
    return enumerator;
  }

  /** The size of the data files the appends of {@code versions} added, from the table's log. */
  private long dataFileBytes(int... versions) throws IOException {
    long bytes = 0;
    for (int version : versions) {
      Path log = dir.resolve("t/_delta_log/%020d.json".formatted(version));
      for (String line : Files.readAllLines(log)) {
        JsonNode add = new ObjectMapper().readTree(line).path("add");
        bytes += add.path("size").asLong();
      }
    }
    return bytes;
  }

  private static MockSplitEnumeratorContext<DeltaSourceSplit> context() {
    MockSplitEnumeratorContext<DeltaSourceSplit> context = new MockSplitEnumeratorContext<>(2);
    context.registerReader(new ReaderInfo(0, "localhost"));
    context.registerReader(new ReaderInfo(1, "localhost"));
    return context;
  }

  /**
   * The splits assigned once there are at least {@code count} (or after 30 s): work the enumerator
   * queues for its coordinator thread runs on the mock context's own executor, not on the caller's.
   */
  private static List<String> awaitAssigned(
      MockSplitEnumeratorContext<DeltaSourceSplit> context, int count) throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    List<String> ids = assigned(context);
    while (ids.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
      ids = assigned(context);
    }
    return ids;
  }

  private static List<String> assigned(MockSplitEnumeratorContext<DeltaSourceSplit> context)
      throws Exception {
    context.getSentSourceEvent(); // runs what is queued in the coordinator thread
    while (true) {
      try {
        List<String> ids = new ArrayList<>();
        for (SplitsAssignment<DeltaSourceSplit> a : context.getSplitsAssignmentSequence()) {
          a.assignment().values().forEach(splits -> splits.forEach(s -> ids.add(s.splitId())));
        }
        return ids;
      } catch (java.util.ConcurrentModificationException e) {
        // the mock's coordinator thread assigned splits while they were read: read again
      }
    }
  }

  @Test
  void aBoundedReadEndsEachReaderOnceEverythingIsHandedOutWithoutWaitingForTheOthers()
      throws Throwable {
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaSourceEnumerator enumerator =
        new DeltaSourceEnumerator(
            context,
            new DeltaEnumeratorState(5, 0, true, List.of(), 0),
            new DeltaTableChanges(table, schema, false, false),
            new DeltaSourceLimits(1000, 0, false, 1_000, 5, true),
            new EpochPositions(null, "src"));
    enumerator.start();
    // a batch job may run one subtask at a time: reader 1 does not ask until reader 0 is done
    enumerator.handleSplitRequest(0, "localhost");
    context.runPeriodicCallable(0);
    List<String> first = awaitAssigned(context, 1);
    assertThat(first).hasSize(1);
    DeltaSourceSplit split =
        context.getSplitsAssignmentSequence().get(0).assignment().get(0).get(0);
    enumerator.addSplitsBack(List.of(split), 0); // reader 0 failed: its split goes out again
    for (int request = 0; request < 10 && !context.hasNoMoreSplits(0); request++) {
      enumerator.handleSplitRequest(0, "localhost");
      assigned(context);
    }
    List<String> ids = assigned(context);
    assertThat(ids).hasSize(6).startsWith(first.get(0), first.get(0));
    assertThat(ids.subList(1, 6)).doesNotHaveDuplicates();
    assertThat(context.hasNoMoreSplits(0)).isTrue();
    assertThat(context.hasNoMoreSplits(1)).isFalse();
    enumerator.handleSplitRequest(1, "localhost");
    assertThat(context.hasNoMoreSplits(1)).isTrue();
    assertThat(assigned(context)).hasSize(6);
  }

  @Test
  void admitsAtMostMaxFilesPerEpochAndResumesFromItsCheckpointWithoutReReading() throws Throwable {
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    DeltaSourceEnumerator enumerator =
        enumerator(context, new DeltaEnumeratorState(1, 0, false, List.of(), 0), 2, 0);
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0); // discovery
    assertThat(assigned(context)).containsExactly("v-1-0", "v-2-0");
    enumerator.handleSplitRequest(0, "localhost");
    assertThat(assigned(context)).hasSize(2); // the epoch's two files are out
    // the backlog: versions 3..5's files, discovered and not admitted
    assertThat(enumerator.recordedMetrics())
        .containsEntry("numFilesOutstanding", 3L)
        .containsEntry("numBytesOutstanding", dataFileBytes(3, 4, 5));

    DeltaEnumeratorState checkpoint = enumerator.snapshotState(1);
    assertThat(checkpoint).isEqualTo(new DeltaEnumeratorState(2, 1, false, List.of(), 2));
    // the next epoch's file, handed out by the coordinator thread after the snapshot
    assertThat(awaitAssigned(context, 3)).containsExactly("v-1-0", "v-2-0", "v-3-0");

    // restore: continues after version 2's file, nothing is admitted twice
    MockSplitEnumeratorContext<DeltaSourceSplit> restored = context();
    DeltaSourceEnumerator again = enumerator(restored, checkpoint, 2, 0);
    again.handleSplitRequest(0, "localhost");
    again.handleSplitRequest(1, "localhost");
    restored.runPeriodicCallable(0);
    assertThat(assigned(restored)).containsExactly("v-3-0", "v-4-0");
  }

  @Test
  void aFilterSkipsTheFilesOfEveryVersionThatCannotMatchAndCountsThem() throws Throwable {
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    DeltaSourceEnumerator enumerator =
        enumerator(
            context,
            new DeltaEnumeratorState(1, 0, false, List.of(), 0),
            1000,
            0,
            DeltaFilter.in("id", 2L, 4L, 6L));
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0);
    assertThat(awaitAssigned(context, 2)).containsExactly("v-2-0", "v-4-0");
    append(6);
    append(7);
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0);
    assertThat(awaitAssigned(context, 3)).containsExactly("v-2-0", "v-4-0", "v-6-0");
    assertThat(enumerator.metrics())
        .isEqualTo(
            Map.of(
                DeltaSourceEnumerator.FILES_ADMITTED, 3L, DeltaSourceEnumerator.FILES_SKIPPED, 4L));
    assertThat(enumerator.snapshotState(1))
        .as("the position follows the admitted files; skipped ones are found again on restore")
        .isEqualTo(new DeltaEnumeratorState(6, 1, false, List.of(), 3));
  }

  @Test
  void aRestoreWithAnotherFilterHandsOutWhatWasAdmittedAndFiltersWhatFollows() throws Throwable {
    DeltaSourceSplit admitted =
        DeltaSourceSplit.of(
            new DeltaTableChanges(table, schemaJson(), false, false).versionFiles(3, 3).get(0));
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    DeltaSourceEnumerator enumerator =
        enumerator(
            context,
            new DeltaEnumeratorState(3, 1, false, List.of(admitted), 1),
            1000,
            0,
            DeltaFilter.greaterThan("id", 4L));
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0);
    assertThat(awaitAssigned(context, 2)).containsExactly("v-3-0", "v-5-0");
  }

  private String schemaJson() {
    return table.latestSnapshot().orElseThrow().getSchema().toJson();
  }

  @Test
  void maxBytesPerTriggerIsSoftAndSplitsGivenBackComeFirst() throws Throwable {
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    DeltaSourceEnumerator enumerator =
        enumerator(context, new DeltaEnumeratorState(1, 0, false, List.of(), 0), 1000, 1);
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost");
    context.runPeriodicCallable(0);
    assertThat(assigned(context)).containsExactly("v-1-0"); // crosses 1 byte: one file per epoch

    DeltaSourceSplit first =
        context.getSplitsAssignmentSequence().get(0).assignment().get(0).get(0);
    enumerator.addSplitsBack(List.of(first), 0); // reader 0 failed before a checkpoint
    DeltaEnumeratorState state = enumerator.snapshotState(1);
    assertThat(state.pending()).containsExactly(first);
    // re-handed to reader 1 by the coordinator thread after the snapshot
    assertThat(awaitAssigned(context, 2)).containsExactly("v-1-0", "v-1-0");
  }

  @Test
  void aChangeCommitFailsOnlyAfterEverythingBeforeItIsReadAndCheckpointed() throws Throwable {
    long deleted = KernelChangeCommits.deleteOneFile(table);
    MockSplitEnumeratorContext<DeltaSourceSplit> context = context();
    DeltaSourceEnumerator enumerator =
        enumerator(context, new DeltaEnumeratorState(4, 0, false, List.of(), 0), 10, 0);
    enumerator.handleSplitRequest(0, "localhost");
    context.runPeriodicCallable(0);
    assertThat(assigned(context)).containsExactly("v-4-0");
    enumerator.handleSplitRequest(1, "localhost");
    assertThat(assigned(context)).containsExactly("v-4-0", "v-5-0");
    enumerator.snapshotState(1); // readers still busy with their files
    enumerator.notifyCheckpointComplete(1);

    enumerator.handleSplitRequest(0, "localhost");
    enumerator.handleSplitRequest(1, "localhost"); // both done
    enumerator.snapshotState(2);
    assertThatThrownBy(() -> enumerator.notifyCheckpointComplete(2))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.findThrowable(e, DeltaChangeCommitException.class))
                    .hasValueSatisfying(c -> assertThat(c.version()).isEqualTo(deleted)))
        .hasMessageContaining("Version " + deleted)
        .hasMessageContaining("skipChangeCommits=true");
  }
}
