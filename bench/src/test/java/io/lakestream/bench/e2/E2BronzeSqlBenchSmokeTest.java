package io.lakestream.bench.e2;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bench e2-bronze-sql} end to end on a few thousand records: both child JVMs run (the
 * Flink SQL pipeline and the DataStream one), each checks that its table holds exactly the distinct
 * events and no dead letters, and the result renders with its ratio.
 */
class E2BronzeSqlBenchSmokeTest {
  @TempDir Path dir;

  @Test
  void bothSidesWriteExactlyTheDistinctEvents() throws Exception {
    BenchOptions options = new BenchOptions(3_000, 0, 2, Duration.ofSeconds(1), dir, false, 0);

    BenchResult result = new E2BronzeSqlBench().run(options);

    assertThat(result.ours().rows()).isEqualTo(new OrderRecords(3_000).records());
    assertThat(result.ours().detail())
        .contains("OrdersBronze in Flink SQL", "table 2,700 rows = distinct events");
    assertThat(result.peer().detail()).contains("table 2,700 rows = distinct events");
    assertThat(result.ratio()).isPositive();
    assertThat(result.toMarkdown()).contains("e2-bronze-sql", "DROP_DUPLICATES_WITHIN_WATERMARK");
  }
}
