package io.lakestream.connectors.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KafkaEnumeratorStateSerializerTest {
  @Test
  void roundTrips() throws IOException {
    KafkaEnumeratorStateSerializer s = new KafkaEnumeratorStateSerializer();
    KafkaEnumeratorState state =
        new KafkaEnumeratorState(
            List.of(new KafkaPartitionSplit("a", 0, 5), new KafkaPartitionSplit("b-c", 3, 0)),
            Set.of("a-0", "a-1", "b-c-3"));
    KafkaEnumeratorState back = s.deserialize(s.getVersion(), s.serialize(state));
    assertThat(back.unassigned()).isEqualTo(state.unassigned());
    assertThat(back.knownPartitions()).isEqualTo(state.knownPartitions());
    KafkaEnumeratorState empty = new KafkaEnumeratorState(List.of(), Set.of());
    assertThat(s.deserialize(1, s.serialize(empty)).knownPartitions()).isEmpty();
  }

  @Test
  void refusesUnknownVersions() {
    assertThatThrownBy(() -> new KafkaEnumeratorStateSerializer().deserialize(2, new byte[0]))
        .hasMessageContaining("version 2");
  }
}
