package io.lakestream.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchMain;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * delta-freshness and realtime-kafka-p99-ms end to end at a tiny size through {@link BenchMain}'s
 * run (what {@code ./bin/bench <id> --rows 2000} runs): every run must see each of its records
 * exactly once or the bench throws. The build never runs the real size, and the numbers of such a
 * run mean nothing.
 */
class LatencyBenchesSmokeTest {
  @TempDir Path dir;

  @Test
  void deltaFreshnessSeesEveryRowAndPrintsTheEpochBreakdown() throws Exception {
    String report = run("delta-freshness");
    assertThat(report)
        .contains(
            "| lakestream: processingTime 1 s | 2,000 |",
            "| lakestream: realTime 1 s | 2,000 |",
            "| lakestream: processingTime 500 ms | 2,000 |",
            "delta-freshness p99 = ",
            "addBatch median",
            "- machine:");
  }

  @Test
  void realTimeKafkaSeesEveryRecordOfTheThreePipelines() throws Exception {
    String report = run("realtime-kafka-p99-ms");
    assertThat(report)
        .contains(
            "| lakestream: realTime stateless, at-least-once | 2,000 |",
            "| lakestream: realTime windowed count, at-least-once | 2,000 |",
            "| lakestream: realTime stateless, exactly-once | 2,000 |",
            "realtime-kafka-p99-ms = ",
            "- machine:");
  }

  @Test
  void percentilesAreNearestRankAndAnEmptySampleIsRefused() {
    long[] micros = new long[100];
    for (int i = 0; i < micros.length; i++) {
      micros[i] = (100 - i) * 1000L; // 100 ms down to 1 ms, unsorted
    }
    LatencySample sample = new LatencySample(micros);
    assertThat(sample.millis(0.50)).isEqualTo(50.0);
    assertThat(sample.millis(0.99)).isEqualTo(99.0);
    assertThat(sample.maxMillis()).isEqualTo(100.0);
    assertThatThrownBy(() -> new LatencySample(new long[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private String run(String id) throws Exception {
    Bench bench = BenchRegistry.standard().find(id).orElseThrow();
    BenchOptions options =
        BenchOptions.parse(List.of("--rows", "1000", "--warmup-rows", "0"), dir.resolve("work"));
    return BenchMain.run(bench, options);
  }
}
