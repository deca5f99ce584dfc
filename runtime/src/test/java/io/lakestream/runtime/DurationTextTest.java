package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

  @Test
  void readsSparkStyleDurations() {
    assertThat(DurationText.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationText.parse("500 milliseconds")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationText.parse("10 us")).isEqualTo(Duration.ofNanos(10_000));
    assertThat(DurationText.parse("30")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationText.parse("1.5 minutes")).isEqualTo(Duration.ofSeconds(90));
    assertThat(DurationText.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationText.parse("2 days")).isEqualTo(Duration.ofDays(2));
    assertThat(DurationText.parse("PT5M")).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void monthsAndUnknownUnitsAreRefused() {
    assertThatThrownBy(() -> DurationText.parse("1 month"))
        .hasMessageContaining("months and years have no fixed length")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
    assertThatThrownBy(() -> DurationText.parse("3 fortnights"))
        .hasMessageContaining("unknown unit 'fortnights'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
    assertThatThrownBy(() -> DurationText.parse("soon"))
        .hasMessageContaining("cannot read")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
  }
}
