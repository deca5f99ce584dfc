package io.lakestream.connectors.autoloader.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiscoveryStateSerializerTest {
  private final DiscoveryStateSerializer serializer = new DiscoveryStateSerializer();

  private DiscoveryState roundTrip(DiscoveryState state) throws IOException {
    return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
  }

  @Test
  void roundTripsAMidBackfillState() throws IOException {
    DiscoveryState state =
        new DiscoveryState(
            "date=2026-11-29/f-9.json",
            "date=2026-11-02/f-0.json",
            3,
            1_700_000_000_000L,
            1_600_000_000_000L,
            42,
            17,
            List.of(new DiscoveredFile("date=2026-11-29/f-9.json", 10, 5)),
            List.of(new DiscoveredFile("date=2026-11-01/late.json", 11, 6)));
    assertThat(roundTrip(state)).isEqualTo(state);
  }

  @Test
  void roundTripsTheInitialState() throws IOException {
    DiscoveryState initial = DiscoveryState.initial(Long.MIN_VALUE);
    assertThat(roundTrip(initial)).isEqualTo(initial);
    assertThat(roundTrip(initial).backfillCursor()).isNull();
  }
}
