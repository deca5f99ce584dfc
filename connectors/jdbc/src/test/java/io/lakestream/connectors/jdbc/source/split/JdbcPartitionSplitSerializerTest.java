package io.lakestream.connectors.jdbc.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.jdbc.source.enumerator.JdbcEnumeratorState;
import io.lakestream.connectors.jdbc.source.enumerator.JdbcEnumeratorStateSerializer;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Splits and enumerator state survive their serializers, version 1's bytes stay readable (a pinned
 * encoding, so a layout change without a new version fails here), and unknown versions are refused.
 */
class JdbcPartitionSplitSerializerTest {
  private final JdbcPartitionSplitSerializer splits = new JdbcPartitionSplitSerializer();
  private final JdbcEnumeratorStateSerializer states = new JdbcEnumeratorStateSerializer();

  @Test
  void roundTripsSplitsWithNegativeAndExtremeBounds() throws IOException {
    for (JdbcPartitionSplit split :
        List.of(
            new JdbcPartitionSplit(0, 1, 0, 0),
            new JdbcPartitionSplit(3, 8, -50, Long.MAX_VALUE),
            new JdbcPartitionSplit(7, 8, Long.MIN_VALUE, 12))) {
      assertThat(splits.deserialize(splits.getVersion(), splits.serialize(split))).isEqualTo(split);
    }
  }

  @Test
  void readsTheVersionOneLayout() throws IOException {
    byte[] v1 =
        HexFormat.of().parseHex("00000002" + "00000004" + "0000000000000064" + "00000000000000c8");
    assertThat(splits.deserialize(1, v1)).isEqualTo(new JdbcPartitionSplit(2, 4, 100, 200));
    assertThat(splits.serialize(new JdbcPartitionSplit(2, 4, 100, 200))).isEqualTo(v1);
  }

  @Test
  void refusesUnknownVersions() {
    assertThatThrownBy(() -> splits.deserialize(2, new byte[24]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 2");
    assertThatThrownBy(() -> states.deserialize(9, new byte[8]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 9");
  }

  @Test
  void roundTripsEnumeratorState() throws IOException {
    JdbcEnumeratorState state =
        new JdbcEnumeratorState(4, JdbcPartitionSplit.of(0, 100, 4).subList(1, 4));
    assertThat(states.deserialize(states.getVersion(), states.serialize(state))).isEqualTo(state);
    JdbcEnumeratorState empty = new JdbcEnumeratorState(4, List.of());
    assertThat(states.deserialize(1, states.serialize(empty))).isEqualTo(empty);
  }
}
