package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class EpochClockTest {
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  @Test
  void anEpochStartsWhereThePreviousWasCutTheFirstWhenTheRunnerStarted() {
    EpochClock clock = new EpochClock(T0);
    clock.triggered(7, T0.plusMillis(300)); // after a failover, ids go on
    clock.triggered(8, T0.plusMillis(800));
    clock.completed(8, T0.plusMillis(850));

    assertThat(clock.of(7)).isEqualTo(new EpochClock.EpochTimes(T0, T0.plusMillis(300), null));
    assertThat(clock.of(8))
        .isEqualTo(
            new EpochClock.EpochTimes(T0.plusMillis(300), T0.plusMillis(800), T0.plusMillis(850)));
    assertThat(clock.of(6)).as("cut before this runner started").isNull();
  }

  @Test
  void anEpochWhosePreviousCutWasForgottenHasNoTimes() {
    EpochClock clock = new EpochClock(T0);
    for (long epoch = 1; epoch <= 201; epoch++) {
      clock.triggered(epoch, T0.plusMillis(epoch));
    }
    assertThat(clock.of(1)).as("trimmed").isNull();
    assertThat(clock.of(2)).as("its previous cut is trimmed: not the runner's start").isNull();
    assertThat(clock.of(3).start()).isEqualTo(T0.plusMillis(2));
  }
}
