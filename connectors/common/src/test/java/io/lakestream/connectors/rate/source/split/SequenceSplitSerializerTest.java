package io.lakestream.connectors.rate.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class SequenceSplitSerializerTest {
  private final SequenceSplitSerializer serializer = new SequenceSplitSerializer();

  @Test
  void roundTrips() throws IOException {
    for (SequenceSplit split :
        new SequenceSplit[] {
          new SequenceSplit(0, 0),
          new SequenceSplit(7, 123_456_789_012L, 42),
          new SequenceSplit(Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)
        }) {
      byte[] bytes = serializer.serialize(split);

      assertThat(bytes).hasSize(20);
      assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(split);
    }
  }

  @Test
  void versionIsTwo() {
    assertThat(serializer.getVersion()).isEqualTo(2);
  }

  @Test
  void readsVersionOneStateWithoutEpoch() throws IOException {
    DataOutputSerializer v1 = new DataOutputSerializer(12);
    v1.writeInt(3);
    v1.writeLong(99);

    assertThat(serializer.deserialize(1, v1.getCopyOfBuffer()))
        .isEqualTo(new SequenceSplit(3, 99, -1));
  }

  @Test
  void unknownVersionIsRefused() throws IOException {
    byte[] bytes = serializer.serialize(new SequenceSplit(1, 2));

    assertThatThrownBy(() -> serializer.deserialize(3, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unknown sequence split version 3")
        .hasMessageContaining("expected 1..2");
  }
}
