package io.lakestream.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {
  private static final Path TMP = Path.of("/tmp/x");

  @Test
  void parsesCountsWithSuffixesAndDurations() {
    BenchOptions o =
        BenchOptions.parse(
            List.of("--rows", "10M", "--warmup-rows", "250K", "--checkpoint-interval", "500ms"),
            TMP);
    assertThat(o.rows()).isEqualTo(10_000_000);
    assertThat(o.warmupRows()).isEqualTo(250_000);
    assertThat(o.checkpointInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(o.parallelism()).isEqualTo(2);
    assertThat(o.rowsOr(7)).isEqualTo(10_000_000);
    assertThat(BenchOptions.parse(List.of(), TMP).rowsOr(7)).isEqualTo(7);
  }

  @Test
  void eventsIsRowsAndIdsSetsTheKeyCount() {
    BenchOptions o = BenchOptions.parse(List.of("--events", "2M", "--ids", "100K"), TMP);
    assertThat(o.rowsOr(7)).isEqualTo(2_000_000);
    assertThat(o.keysOr(7)).isEqualTo(100_000);
    assertThat(o.withRows(5, TMP).keys()).isEqualTo(100_000);
    assertThat(BenchOptions.parse(List.of(), TMP).keysOr(7)).isEqualTo(7);
  }

  @Test
  void postgresIsEmbeddedUnlessDebianIsAskedForAndSurvivesTheWarmUp() {
    assertThat(BenchOptions.parse(List.of(), TMP).postgres()).isEqualTo("embedded");
    BenchOptions o = BenchOptions.parse(List.of("--postgres", "Debian"), TMP);
    assertThat(o.postgres()).isEqualTo("debian");
    assertThat(o.withRows(5, TMP).postgres()).isEqualTo("debian");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--postgres", "ubuntu"), TMP))
        .hasMessageContaining("--postgres")
        .hasMessageContaining("[embedded, debian]")
        .hasMessageContaining("ubuntu");
  }

  @Test
  void unknownOptionsAndBadValuesNameTheOption() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--row", "5"), TMP))
        .hasMessageContaining("Unknown option '--row'")
        .hasMessageContaining("--rows N");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--rows", "ten"), TMP))
        .hasMessageContaining("--rows")
        .hasMessageContaining("ten");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--checkpoint-interval", "3m"), TMP))
        .hasMessageContaining("--checkpoint-interval");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--dir"), TMP))
        .hasMessageContaining("--dir needs a value");
  }

  @Test
  void everyRegisteredBenchHasAUniqueIdAndADefaultSize() {
    BenchRegistry registry = BenchRegistry.standard();
    assertThat(registry.find("delta-sink")).isPresent();
    assertThat(registry.find("dedup-state")).isPresent();
    assertThat(registry.find("merge")).isPresent();
    assertThat(registry.find("no-such-bench")).isEmpty();
    assertThat(registry.all()).allSatisfy(b -> assertThat(b.defaultRows()).isPositive());
  }
}
