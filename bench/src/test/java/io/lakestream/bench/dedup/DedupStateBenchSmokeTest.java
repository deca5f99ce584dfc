package io.lakestream.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.dedup.DedupStateBench.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dedup-state bench end to end on a small stream (the build never runs 20M events): every job's
 * output equals the reference model (the bench throws otherwise), the within-watermark dedup ends
 * holding about the model's keys while plain dropDuplicates holds every id, and the report carries
 * the expected "ids per delay" and the ratio.
 */
class DedupStateBenchSmokeTest {
  @TempDir Path dir;

  @Test
  void theDedupStateStaysNearTheModelWhilePlainDropDuplicatesHoldsEveryId() throws Exception {
    // The rule's output depends on how far the real watermark trails: at 1M events over 50K ids
    // a row is lost once about 135K events pass on one watermark, far more than the bench's
    // 50 ms watermark interval lets through (DedupStateJob.WATERMARK_INTERVAL).
    BenchOptions options =
        new BenchOptions(1_000_000, 0, 2, Duration.ofMillis(500), dir, false, 50_000);

    Outcome o = new DedupStateBench().measure(options, false);

    long modelEnd = o.model().heldKeysAt(ReferenceModel.SAMPLES);
    long dedupEnd = last(o.dedup()).numRowsTotal();
    long unboundedEnd = last(o.unbounded()).numRowsTotal();
    assertThat(o.dedup().outputRows()).isEqualTo(o.model().passesWithinWatermark());
    assertThat(o.unbounded().outputRows()).isEqualTo(o.model().distinctIds());
    assertThat(o.e5().outputWeight()).isEqualTo(o.model().emittedWindowRows());
    assertThat(unboundedEnd).isEqualTo(o.model().distinctIds());
    // the real watermark trails the model's a little, so the operator may hold somewhat more
    assertThat(dedupEnd).isBetween(modelEnd * 9 / 10, modelEnd * 3 / 2);
    assertThat(dedupEnd).isLessThan(unboundedEnd * 7 / 10);
    String report =
        new DedupStateReport(
                o.workload(), o.model(), java.util.List.of(o.dedup(), o.e5(), o.unbounded()))
            .markdown();
    assertThat(report).contains("ids per delay", "ratio = dedup plateau", "| 100% |");
  }

  private static StateSample last(DedupStateJob.Run run) {
    return run.samples().get(run.samples().size() - 1);
  }
}
