package io.lakestream.bench.e2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.Measurement;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class E2BronzeBenchTest {

  @Test
  void twoMillionRecordsAreOnePointEightMillionEventsAndTenPercentDuplicates() {
    OrderRecords input = new OrderRecords(2_000_000);
    assertThat(input.distinct()).isEqualTo(1_800_000);
    assertThat(input.records()).isEqualTo(2_000_000);
  }

  @Test
  void recordsAreDistinctJsonOrdersAndEveryDuplicateRepeatsAnEarlierOne() {
    OrderRecords input = new OrderRecords(1_000);
    Set<String> seen = new HashSet<>();
    for (long i = 0; i < input.distinct(); i++) {
      assertThat(seen.add(OrderRecords.json(i))).isTrue();
    }
    assertThat(OrderRecords.json(7))
        .isEqualTo(
            "{\"event_id\":\"e-7\",\"order_id\":\"o-7\",\"customer_id\":\"c-7\",\"amount\":7.25,"
                + "\"currency\":\"USD\",\"order_ts\":\"2026-03-01T10:00:07Z\"}");
    assertThat(input.records() - input.distinct()).isEqualTo(input.distinct() / 9);
  }

  @Test
  void reportLineRoundTrips() {
    String line =
        ChildReport.PREFIX
            + "rows=2000 nanos=3000000000 cpuNanos=4000000000 peakRss=1048576 peakHeap=2048"
            + " detail=a b=c; d";
    Measurement m = ChildReport.parse("side", line);
    assertThat(m.rows()).isEqualTo(2000);
    assertThat(m.rowsPerSecond()).isEqualTo(2000 / 3.0);
    assertThat(m.cpuNanos()).isEqualTo(4_000_000_000L);
    assertThat(m.peakRssBytes()).isEqualTo(1048576);
    assertThat(m.peakHeapBytes()).isEqualTo(2048);
    assertThat(m.detail()).isEqualTo("a b=c; d");
    assertThatThrownBy(() -> ChildReport.parse("side", "rows=1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void ceilingShareIsTheRateOverTheRawConsumersAndCpuIsPerRecord() {
    Measurement ours =
        new Measurement("ours", 2_000_000, 20_000_000_000L, 40_000_000_000L, 1, 1, "");
    Measurement raw = new Measurement("raw", 2_000_000, 4_000_000_000L, 5_000_000_000L, 1, 1, "");
    assertThat(E2BronzeBench.ceilingShare(ours, raw)).isEqualTo(0.2);
    assertThat(E2BronzeBench.cpuMicrosPerRecord(ours)).isEqualTo(20.0);
    assertThat(E2BronzeBench.cpuMicrosPerRecord(raw)).isEqualTo(2.5);
  }
}
