package io.lakestream.bench.e2;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.Measurement;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bench e2-bronze-sql} end to end on a few thousand records: the three child JVMs run
 * (the Flink SQL pipeline, the DataStream one, and the shipped {@code e2_bronze.sql} through {@code
 * lakestream sql}), each table holds exactly the distinct events and no dead letters, and the
 * result renders with its ratios.
 */
class E2BronzeSqlBenchSmokeTest {
  @TempDir Path dir;

  @Test
  void allSidesWriteExactlyTheDistinctEvents() throws Exception {
    BenchOptions options = new BenchOptions(3_000, 0, 2, Duration.ofSeconds(1), dir, false, 0);

    BenchResult result = new E2BronzeSqlBench().run(options);

    assertThat(result.ours().rows()).isEqualTo(new OrderRecords(3_000).records());
    assertThat(result.ours().detail())
        .contains("OrdersBronze in Flink SQL", "table 2,700 rows = distinct events");
    assertThat(result.peer().detail()).contains("table 2,700 rows = distinct events");
    assertThat(result.ratio()).isPositive();
    assertThat(result.diagnostics()).hasSize(1);
    Measurement cli = result.diagnostics().get(0);
    assertThat(cli.rows()).isEqualTo(result.ours().rows());
    assertThat(cli.cpuNanos()).isPositive();
    assertThat(cli.detail())
        .contains(
            "lakestream sql -f e2_bronze.sql --trigger availableNow",
            "table 2,700 rows = distinct events");
    assertThat(result.toMarkdown())
        .contains(
            "e2-bronze-sql",
            "DROP_DUPLICATES_WITHIN_WATERMARK",
            "lakestream: lakestream sql -f e2_bronze.sql",
            "e2_bronze.sql (the shipped example file): ratio");
  }
}
