package io.lakestream.bench.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.Measurement;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delta-sink bench end to end on a few thousand rows (the build never runs the real sizes):
 * both sides report every row, and the Delta table the sink wrote holds exactly the bench's data
 * set, row for row.
 */
class DeltaSinkBenchSmokeTest {
  private static final long ROWS = 3_000;

  @TempDir Path dir;

  @Test
  void eachSideReportsItsMedianTrial() {
    Measurement slow = trial("slow", 4_000_000_000L);
    Measurement middle = trial("middle", 2_000_000_000L);
    Measurement fast = trial("fast", 1_000_000_000L);
    assertThat(DeltaSinkBench.median(List.of(fast, slow, middle))).isSameAs(middle);
    assertThat(DeltaSinkBench.median(List.of(fast, slow))).isSameAs(slow);
    assertThat(DeltaSinkBench.median(List.of(fast))).isSameAs(fast);
  }

  @Test
  void trialsShorterThanTenSecondsAreNamed() {
    Measurement tenSeconds = trial("ten", 10_000_000_000L);
    Measurement twelve = trial("twelve", 12_000_000_000L);
    assertThat(DeltaSinkBench.shortTrials(List.of(List.of(tenSeconds), List.of(twelve))))
        .isEqualTo("every trial lasted at least 10 s (shortest 10.0 s)");
    assertThat(
            DeltaSinkBench.shortTrials(
                List.of(List.of(twelve, trial("short", 1_500_000_000L)), List.of(tenSeconds))))
        .startsWith("1 trials lasted less than 10 s (shortest 1.5 s)");
  }

  private static Measurement trial(String name, long nanos) {
    return new Measurement(name, 10_000_000, nanos, nanos, 0, 0, "");
  }

  /** Two trials: the second must replace the first's table, not append to it. */
  @Test
  void bothSidesWriteEveryRowAndTheTableHoldsTheDataSet() throws Exception {
    BenchOptions options = new BenchOptions(ROWS, 0, 2, Duration.ofMillis(300), dir, true);

    BenchResult result = new DeltaSinkBench(2).run(options);

    assertThat(result.ours().rows()).isEqualTo(ROWS);
    assertThat(result.peer().rows()).isEqualTo(ROWS);
    assertThat(result.ratio()).isPositive();
    assertThat(result.toMarkdown()).contains("| lakestream", "| peer", "ratio");

    DeltaTable table = DeltaTable.forPath(dir.resolve("lakestream/table").toString());
    List<Object[]> rows = new DeltaTableReader(table).readLatest();
    rows.sort(Comparator.comparingLong(r -> (Long) r[0]));
    assertThat(rows).hasSize((int) ROWS);
    for (int i = 0; i < ROWS; i++) {
      NarrowRow expected = NarrowRow.at(i);
      assertThat(rows.get(i))
          .containsExactly(
              (long) i,
              Instant.EPOCH.plus(expected.tsMicros, ChronoUnit.MICROS),
              expected.category,
              expected.amount);
    }
  }
}
