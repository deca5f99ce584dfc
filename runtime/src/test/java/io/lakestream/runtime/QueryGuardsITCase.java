package io.lakestream.runtime;

import static io.lakestream.runtime.GuardsFixture.contents;
import static io.lakestream.runtime.GuardsFixture.hashmap;
import static io.lakestream.runtime.GuardsFixture.runToEnd;
import static io.lakestream.runtime.GuardsFixture.settledContents;
import static io.lakestream.runtime.GuardsFixture.start;
import static io.lakestream.runtime.GuardsFixture.tableCounts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.GuardsFixture.CountModel;
import io.lakestream.runtime.GuardsFixture.Flow;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.checkpoint.QueryAlreadyRunningException;
import io.lakestream.state.checkpoint.QueryLease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.FileUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guards of the query runtime that protect a checkpoint location, each shown to trigger before
 * anything runs (nothing written, nothing changed) with a message naming the problem. The restart
 * matrix is in {@link QueryGuardsRestartMatrixITCase} (refused changes) and {@link
 * QueryGuardsAllowedChangesITCase} (allowed ones). {@code continuous} triggers are refused in
 * {@link TriggerTest}.
 */
class QueryGuardsITCase {
  @TempDir Path tmp;

  private Path location() {
    return tmp.resolve("chk");
  }

  private Path table() {
    return tmp.resolve("table");
  }

  @Test
  void aRunWhoseLeaseAnotherRunTookOverFailsSayingSo() throws Exception {
    Flow unbounded = new Flow(table()).rows(Long.MAX_VALUE).rowsPerSecond(40);
    StreamingQuery query =
        start(location(), unbounded, Trigger.processingTime(Duration.ofMillis(300)), 1);
    try {
      awaitRows(table(), 20);
      // As if this run had stalled past its expiry and another machine's run took over.
      Path newer = location().resolve(QueryLease.DIRECTORY).resolve(String.format("%020d", 99));
      Files.writeString(
          newer,
          "{\"runId\":\"run-elsewhere\",\"queryName\":\"guards\",\"host\":\"far-host\","
              + "\"pid\":7,\"heartbeatAt\":\""
              + Instant.now().plus(Duration.ofMinutes(5))
              + "\"}");

      assertThatThrownBy(() -> query.awaitTermination(Duration.ofSeconds(90)))
          .isInstanceOf(StreamingQueryException.class)
          .hasStackTraceContaining("lost the lease of checkpoint location")
          .hasStackTraceContaining("run run-elsewhere on host far-host, pid 7")
          .hasMessageNotContaining("..");
    } finally {
      if (query.isActive()) {
        query.stop();
      }
    }
  }

  @Test
  void aSecondRunOnTheSameLocationIsRefusedUntilTheFirstStopsThenItResumes() throws Exception {
    Flow unbounded = new Flow(table()).rows(Long.MAX_VALUE).rowsPerSecond(40);
    Trigger trigger = Trigger.processingTime(Duration.ofMillis(300));

    StreamingQuery first = start(location(), unbounded, trigger, 1);
    Map<Long, Long> firstRows;
    try {
      awaitRows(table(), 20);
      String metadataDuringFirst = Files.readString(location().resolve("metadata"));

      assertThatThrownBy(() -> start(location(), unbounded, trigger, 1))
          .isInstanceOf(QueryAlreadyRunningException.class)
          .hasMessageContaining("is already running on checkpoint location")
          .hasMessageContaining("run " + first.runId())
          .hasMessageContaining("stop the other run first")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("QUERY_ALREADY_RUNNING");

      assertThat(first.isActive()).as("the first run goes on").isTrue();
      assertThat(QueryLease.isHeldBy(new CheckpointLocation(location().toUri()), first.runId()))
          .as("the first run keeps its lease")
          .isTrue();
      assertThat(Files.readString(location().resolve("metadata")))
          .as("the refused run did not register itself")
          .isEqualTo(metadataDuringFirst)
          .contains(first.runId());
    } finally {
      first.stop();
    }
    assertThat(first.exception()).isEmpty();
    assertThat(QueryLease.isHeld(new CheckpointLocation(location().toUri())))
        .as("the stopped run released its lease")
        .isFalse();
    firstRows = tableCounts(table());
    assertContinuousCounts(firstRows);

    StreamingQuery second = start(location(), unbounded, trigger, 1);
    try {
      assertThat(second.id()).as("same query").isEqualTo(first.id());
      assertThat(second.runId()).isNotEqualTo(first.runId());
      awaitRows(table(), firstRows.size() + 20);
    } finally {
      second.stop();
    }
    assertThat(second.exception()).isEmpty();

    Map<Long, Long> all = tableCounts(table()); // fails on a row written twice
    assertThat(all).containsAllEntriesOf(firstRows).hasSizeGreaterThan(firstRows.size());
    for (long partition = 0; partition < 2; partition++) {
      assertThat(firstRow(all, firstRows, partition))
          .as(
              "the second run continues partition %d right after the first run's last row",
              partition)
          .isEqualTo(lastRow(firstRows, partition) + 2);
    }
    assertContinuousCounts(all);
  }

  @Test
  void aLocationInsideTheTablesDataDirectoryIsRefusedButItsUnderscoreDirectoryIsAllowed()
      throws Exception {
    Flow flow = new Flow(table());
    assertThatThrownBy(() -> start(table().resolve("q"), flow, Trigger.availableNow(), 1))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("is inside a table's data directory")
        .hasMessageContaining("/_checkpoints/")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_OVERLAPS_DATA");
    assertThatThrownBy(() -> start(table(), flow, Trigger.availableNow(), 1))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("is a table's data directory itself")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_OVERLAPS_DATA");
    assertThat(contents(table())).as("nothing written into the table").isEmpty();

    Path allowed = table().resolve("_checkpoints").resolve("q");
    runToEnd(allowed, flow);
    assertThat(tableCounts(table())).isEqualTo(new CountModel().run(200));
    assertThat(allowed.resolve("metadata")).exists();
  }

  @ParameterizedTest
  @ValueSource(strings = {"numbers", "drop some", "count per key", "project", "counts table"})
  void anOperatorWithoutUidIsRefusedBeforeTheJobIsSubmitted(String operator) throws Exception {
    Flow flow = new Flow(table()).withFilter().withProjection().withoutUid(operator);

    assertThatThrownBy(() -> start(location(), flow, Trigger.availableNow(), 1))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("needs an explicit uid")
        .hasMessageContaining("missing on '" + operator + "'.")
        .hasMessageContaining(".uid(")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_OPERATOR_UID_MISSING");

    assertThat(contents(location())).as("no metadata, lock or state written").isEmpty();
    assertThat(table()).doesNotExist();
  }

  @Test
  void deletedSnapshotsAreRefusedInsteadOfSilentlyStartingFromScratch() throws Exception {
    Flow flow = new Flow(table());
    runToEnd(location(), flow);
    settledContents(location());
    assertThat(location().resolve("savepoints")).isNotEmptyDirectory();
    FileUtils.deleteDirectory(location().resolve("state").toFile());
    FileUtils.deleteDirectory(location().resolve("savepoints").toFile());
    Map<String, String> locationBefore = contents(location());
    Map<String, String> tableBefore = contents(table());

    assertThatThrownBy(() -> start(location(), flow.rows(400), Trigger.availableNow(), 1))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("has committed epochs up to")
        .hasMessageContaining("no restorable checkpoint or savepoint")
        .hasMessageContaining("silently start from scratch")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_SNAPSHOTS_MISSING");

    assertThat(contents(location())).isEqualTo(locationBefore);
    assertThat(contents(table())).isEqualTo(tableBefore);
  }

  @Test
  void epochsWithoutAMetadataFileAreRefused() throws Exception {
    Flow flow = new Flow(table());
    runToEnd(location(), flow);
    settledContents(location());
    Files.delete(location().resolve("metadata"));

    for (String leftOver : List.of("snapshots and epochs", "epochs only")) {
      if (leftOver.equals("epochs only")) {
        FileUtils.deleteDirectory(location().resolve("state").toFile());
        FileUtils.deleteDirectory(location().resolve("savepoints").toFile());
      }
      Map<String, String> locationBefore = contents(location());
      assertThatThrownBy(() -> start(location(), flow.rows(400), Trigger.availableNow(), 1))
          .as(leftOver)
          .isInstanceOf(CheckpointLocationException.class)
          .hasMessageContaining("holds snapshots or epochs but no metadata file")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("CHECKPOINT_LOCATION_CORRUPT");
      assertThat(contents(location())).as(leftOver).isEqualTo(locationBefore);
      assertThat(location().resolve("metadata")).doesNotExist();
    }
    assertThat(tableCounts(table())).hasSize(200);
  }

  @Test
  void boundedTriggersRefuseASourceThatCannotStopAtTheAvailableData() throws Exception {
    Flow flow = new Flow(table()).fromData();
    for (Trigger trigger : List.of(Trigger.availableNow(), Trigger.once())) {
      assertThatThrownBy(() -> start(location(), flow, trigger, 1))
          .as(trigger.toString())
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("needs sources that can stop at the data available at start")
          .hasMessageContaining("[numbers] cannot")
          .hasMessageContaining("processingTime")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("QUERY_UNSUPPORTED_TRIGGER");
    }
    assertThat(contents(location())).isEmpty();
  }

  @Test
  void parallelismAboveMaxParallelismIsRefusedOnANewLocation() throws Exception {
    Flow flow = new Flow(table());
    assertThatThrownBy(
            () ->
                start(location(), flow, Trigger.availableNow(), 3, hashmap().withMaxParallelism(2)))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("parallelism 3 exceeds the max parallelism 2")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_PARALLELISM");
    assertThat(contents(location())).as("no metadata written").isEmpty();
  }

  /** Waits until the table holds at least {@code rows} rows. */
  private static void awaitRows(Path table, int rows) throws Exception {
    Instant deadline = Instant.now().plus(GuardsFixture.RUN_TIMEOUT);
    while (tableCounts(table).size() < rows) {
      assertThat(Instant.now()).as("waiting for %d rows in %s", rows, table).isBefore(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * Checks an unfiltered table: each partition's rows from its first on without a gap, and every
   * count continuing its key's count ({@code row / 4 + 1}).
   */
  private static void assertContinuousCounts(Map<Long, Long> rows) {
    for (Map.Entry<Long, Long> row : rows.entrySet()) {
      long r = row.getKey();
      assertThat(row.getValue()).as("count of row %d", r).isEqualTo(r / GuardsFixture.KEYS + 1);
      if (r >= 2) {
        assertThat(rows).as("row %d precedes row %d in its partition", r - 2, r).containsKey(r - 2);
      }
    }
  }

  private static long lastRow(Map<Long, Long> rows, long partition) {
    return rows.keySet().stream().filter(r -> r % 2 == partition).max(Long::compare).orElse(-2L);
  }

  /** The first row of {@code partition} in {@code all} that is not in {@code before}. */
  private static long firstRow(Map<Long, Long> all, Map<Long, Long> before, long partition) {
    return all.keySet().stream()
        .filter(r -> r % 2 == partition && !before.containsKey(r))
        .min(Long::compare)
        .orElseThrow();
  }
}
