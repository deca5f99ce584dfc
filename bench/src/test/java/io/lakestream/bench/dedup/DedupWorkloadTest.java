package io.lakestream.bench.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The generator's promises the bench's checks rely on: deterministic, ids and times in range, and
 * an id's repeats either well inside the dedup bound or well beyond the point where its key is
 * freed (so a real run's output cannot depend on how far its watermark trails); and the expected
 * "ids per delay" and plateau agree with what the reference model counts.
 */
class DedupWorkloadTest {
  private static final long DELAY = DedupWorkload.DELAY.toMillis();

  @Test
  void eventsAreDeterministicAndInRange() {
    DedupWorkload w = new DedupWorkload(200_000, 20_000);
    DedupWorkload again = new DedupWorkload(200_000, 20_000);
    for (long i = 0; i < w.events(); i++) {
      DedupEvent e = w.at(i);
      assertThat(e.id).isBetween(0L, w.ids() - 1);
      assertThat(e.adId).isEqualTo(e.id % DedupWorkload.ADS);
      assertThat(e.eventTimeMillis)
          .isBetween(
              DedupWorkload.ORIGIN_MILLIS - DedupWorkload.JITTER.toMillis(),
              DedupWorkload.ORIGIN_MILLIS + DedupWorkload.SPAN.toMillis());
      DedupEvent f = again.at(i);
      assertThat(f.id).isEqualTo(e.id);
      assertThat(f.eventTimeMillis).isEqualTo(e.eventTimeMillis);
    }
  }

  @Test
  void repeatsOfAnIdAreWithinTheBoundOrFarBeyondIt() {
    DedupWorkload w = new DedupWorkload(300_000, 20_000);
    long[] burstStart = new long[(int) w.ids()];
    long[] last = new long[(int) w.ids()];
    Arrays.fill(burstStart, Long.MIN_VALUE);
    long margin = Long.MAX_VALUE;
    long longestBurst = 0;
    for (long i = 0; i < w.events(); i++) {
      int id = (int) w.id(i);
      long ts = w.eventTime(i);
      if (burstStart[id] == Long.MIN_VALUE || ts - last[id] > DELAY) {
        if (burstStart[id] != Long.MIN_VALUE) {
          // a new burst: the key must have been freed (2 delays after the burst's first row) well
          // before
          margin = Math.min(margin, ts - (burstStart[id] + 2 * DELAY));
        }
        burstStart[id] = ts;
      } else {
        longestBurst = Math.max(longestBurst, ts - burstStart[id]);
      }
      last[id] = Math.max(last[id], ts);
    }
    assertThat(longestBurst)
        .isLessThanOrEqualTo(DedupWorkload.BURST.toMillis() + 2 * DedupWorkload.JITTER.toMillis());
    assertThat(margin).isGreaterThanOrEqualTo(2 * 60_000L); // minutes of event time to spare
  }

  @Test
  void expectedIdsPerDelayAndPlateauMatchTheModel() {
    DedupWorkload w = new DedupWorkload(2_000_000, 100_000);
    ReferenceModel model = ReferenceModel.of(w, 2);
    assertThat((double) model.idsPerDelay())
        .isCloseTo(w.expectedIdsPerDelay(), within(0.03, w.expectedIdsPerDelay()));
    assertThat((double) model.plateau())
        .isCloseTo(w.expectedPlateau(), within(0.03, w.expectedPlateau()));
    assertThat(model.lateWithinWatermark()).isZero();
    assertThat(model.distinctIds()).isEqualTo(w.ids());
    assertThat(model.passesWithinWatermark()).isBetween(w.ids(), 2 * w.ids());
    assertThat(model.emittedWindowRows()).isLessThan(w.events()).isPositive();
  }

  @Test
  void refusesTooFewIds() {
    assertThatThrownBy(() -> new DedupWorkload(1_000, 10)).hasMessageContaining("--ids");
  }

  private static org.assertj.core.data.Offset<Double> within(double fraction, double of) {
    return org.assertj.core.data.Offset.offset(fraction * of);
  }
}
