package io.lakestream.runtime;

import static io.lakestream.runtime.GuardsFixture.hashmap;
import static io.lakestream.runtime.GuardsFixture.runToEnd;
import static io.lakestream.runtime.GuardsFixture.start;
import static io.lakestream.runtime.GuardsFixture.tableCounts;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.runtime.GuardsFixture.CountModel;
import io.lakestream.runtime.GuardsFixture.Flow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The allowed half of the restart matrix: after a first availableNow run over rows 0..199, the
 * query is changed and run again over rows 0..399. The second run must pass the restart checks and
 * write exactly the new rows 200..399, none twice, with the keyed counts continuing from the first
 * run (a fresh start would count from 1 again).
 */
class QueryGuardsAllowedChangesITCase {
  @TempDir Path tmp;

  enum Change {
    /**
     * A filter in front of the stateful operator: new rows it drops are neither counted nor
     * written.
     */
    ADD_FILTER,
    /** A projection after the stateful operator (drops the key field). */
    ADD_PROJECTION,
    /** availableNow -> once: everything new in one epoch. */
    TRIGGER_AVAILABLE_NOW_TO_ONCE,
    /** availableNow -> processingTime, stopped by {@link StreamingQuery#stop()}. */
    TRIGGER_AVAILABLE_NOW_TO_PROCESSING_TIME,
    /** No rate limit -> maxRowsPerTrigger 50: the new rows take several epochs. */
    RATE_LIMIT,
    /** Parallelism 1 -> 2: keyed state is redistributed by key group. */
    PARALLELISM_1_TO_2
  }

  @ParameterizedTest
  @EnumSource(Change.class)
  void anAllowedChangeResumesWithOnlyTheNewRowsAndTheStateCarriedOver(Change change)
      throws Exception {
    Path location = tmp.resolve("chk");
    Path table = tmp.resolve("table");
    Flow flow = new Flow(table);
    CountModel model = new CountModel();
    runToEnd(location, flow);
    Map<Long, Long> first = tableCounts(table);
    assertThat(first).isEqualTo(model.run(200));
    int epochsBefore = commitMarkers(table);

    Map<Long, Long> expected;
    switch (change) {
      case ADD_FILTER -> {
        runToEnd(location, flow.rows(400).withFilter());
        expected = model.run(400, GuardsFixture::dropped);
      }
      case ADD_PROJECTION -> {
        runToEnd(location, flow.rows(400).withProjection());
        expected = model.run(400);
      }
      case TRIGGER_AVAILABLE_NOW_TO_ONCE -> {
        runToEnd(location, flow.rows(400), Trigger.once(), 1, hashmap());
        expected = model.run(400);
        assertThat(commitMarkers(table) - epochsBefore).as("one epoch").isEqualTo(1);
      }
      case TRIGGER_AVAILABLE_NOW_TO_PROCESSING_TIME -> {
        StreamingQuery query =
            start(location, flow.rows(400), Trigger.processingTime(Duration.ofMillis(300)), 1);
        try {
          Instant deadline = Instant.now().plus(GuardsFixture.RUN_TIMEOUT);
          while (tableCounts(table).size() < 400 && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
          }
        } finally {
          query.stop();
        }
        assertThat(query.exception()).isEmpty();
        expected = model.run(400);
      }
      case RATE_LIMIT -> {
        runToEnd(location, flow.rows(400).maxRowsPerTrigger(50));
        expected = model.run(400);
        assertThat(commitMarkers(table) - epochsBefore)
            .as("200 new rows at most 50 per epoch")
            .isGreaterThanOrEqualTo(4);
      }
      case PARALLELISM_1_TO_2 -> {
        runToEnd(location, flow.rows(400), Trigger.availableNow(), 2, hashmap());
        expected = model.run(400);
        assertThat(dataFiles(table, "part-00001-"))
            .as("written by the second subtask")
            .isPositive();
      }
      default -> throw new AssertionError(change);
    }

    Map<Long, Long> all = tableCounts(table); // fails on a row written twice
    Map<Long, Long> added = new TreeMap<>(all);
    added.keySet().removeAll(first.keySet());
    assertThat(added)
        .as("exactly the new rows, with each key's count continuing from the first run")
        .isEqualTo(expected);
    assertThat(all).containsAllEntriesOf(first).hasSize(first.size() + expected.size());
  }

  /** Committed epochs that wrote rows (the table's commit markers). */
  private static int commitMarkers(Path table) throws IOException {
    try (Stream<Path> markers = Files.list(table.resolve("_commits"))) {
      return (int) markers.count();
    }
  }

  private static long dataFiles(Path table, String prefix) throws IOException {
    try (Stream<Path> files = Files.list(table)) {
      return files.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
    }
  }
}
