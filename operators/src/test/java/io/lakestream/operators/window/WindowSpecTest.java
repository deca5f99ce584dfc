package io.lakestream.operators.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WindowSpecTest {

  @Test
  void parsesSparkIntervalsFromMicrosecondsToDays() {
    assertThat(WindowSpec.tumbling("250 microseconds").sizeMicros()).isEqualTo(250);
    assertThat(WindowSpec.tumbling("1 millisecond").sizeMicros()).isEqualTo(1_000);
    assertThat(WindowSpec.tumbling("10 seconds").sizeMicros()).isEqualTo(10_000_000);
    assertThat(WindowSpec.tumbling("interval 1 hour 30 minutes").sizeMicros())
        .isEqualTo(5_400_000_000L);
    assertThat(WindowSpec.tumbling("2 Days").sizeMicros()).isEqualTo(172_800_000_000L);
    assertThat(WindowSpec.tumbling("1 week").sizeMicros()).isEqualTo(604_800_000_000L);
    assertThat(WindowSpec.tumbling(Duration.ofNanos(3_000)).sizeMicros()).isEqualTo(3);
    assertThat(WindowSpec.sliding("10 minutes", "5 minutes").isTumbling()).isFalse();
  }

  @Test
  void refusesMonthsYearsAndMalformedDurations() {
    assertThatThrownBy(() -> WindowSpec.tumbling("1 month"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("no fixed length")
        .hasMessageContaining("30 days")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.sliding("2 years", "1 day"))
        .hasMessageContaining("years")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.tumbling("ten minutes"))
        .hasMessageContaining("cannot parse window duration 'ten minutes'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.tumbling("5 fortnights"))
        .hasMessageContaining("units: microseconds")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.tumbling("0 seconds"))
        .hasMessageContaining("positive")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.tumbling(Duration.ofNanos(1_500)))
        .hasMessageContaining("microsecond precision")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
    assertThatThrownBy(() -> WindowSpec.sliding("5 minutes", "10 minutes"))
        .hasMessageContaining("must be less than or equal to the window size")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WINDOW_SPEC");
  }

  @Test
  void assignsAlignedHalfOpenWindowsIncludingNegativeTimes() {
    WindowSpec tumbling = WindowSpec.tumbling("10 seconds");
    assertThat(tumbling.windowStarts(0)).containsExactly(0);
    assertThat(tumbling.windowStarts(9_999_999)).containsExactly(0);
    assertThat(tumbling.windowStarts(10_000_000)).containsExactly(10_000_000);
    assertThat(tumbling.windowStarts(-1)).containsExactly(-10_000_000);
    WindowSpec sliding = WindowSpec.sliding("10 seconds", "4 seconds");
    // windows [8,18), [4,14), [0,10) contain 9 s
    assertThat(sliding.windowStarts(9_000_000)).containsExactly(8_000_000, 4_000_000, 0);
    assertThat(sliding.windowStarts(12_000_000)).containsExactly(12_000_000, 8_000_000, 4_000_000);
  }
}
