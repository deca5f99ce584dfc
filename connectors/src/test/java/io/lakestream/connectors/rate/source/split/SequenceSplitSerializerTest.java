package io.lakestream.connectors.rate.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class SequenceSplitSerializerTest {
  private final SequenceSplitSerializer serializer = new SequenceSplitSerializer();

  @Test
  void roundTrips() throws IOException {
    for (SequenceSplit split :
        new SequenceSplit[] {
          new SequenceSplit(0, 0),
          new SequenceSplit(7, 123_456_789_012L),
          new SequenceSplit(Integer.MAX_VALUE, Long.MAX_VALUE)
        }) {
      byte[] bytes = serializer.serialize(split);

      assertThat(bytes).hasSize(12);
      assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(split);
    }
  }

  @Test
  void versionIsOne() {
    assertThat(serializer.getVersion()).isEqualTo(1);
  }

  @Test
  void unknownVersionIsRefused() throws IOException {
    byte[] bytes = serializer.serialize(new SequenceSplit(1, 2));

    assertThatThrownBy(() -> serializer.deserialize(2, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unknown sequence split version 2")
        .hasMessageContaining("expected 1");
  }
}
