package io.lakestream.connectors.kafka.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class KafkaPartitionSplitSerializerTest {
  @Test
  void roundTrips() throws IOException {
    KafkaPartitionSplitSerializer s = new KafkaPartitionSplitSerializer();
    KafkaPartitionSplit split = new KafkaPartitionSplit("orders.v1-eu", 7, 123_456_789_012L);
    assertThat(s.deserialize(s.getVersion(), s.serialize(split))).isEqualTo(split);
    assertThat(split.splitId()).isEqualTo("orders.v1-eu-7");
  }

  @Test
  void refusesUnknownVersionsAndUnresolvedOffsets() {
    assertThatThrownBy(() -> new KafkaPartitionSplitSerializer().deserialize(99, new byte[0]))
        .hasMessageContaining("version 99");
    assertThatThrownBy(() -> new KafkaPartitionSplit("t", 0, -2))
        .hasMessageContaining("concrete offset");
  }
}
