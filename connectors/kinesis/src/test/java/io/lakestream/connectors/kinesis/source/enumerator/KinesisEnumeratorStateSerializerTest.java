package io.lakestream.connectors.kinesis.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KinesisEnumeratorStateSerializerTest {
  private final KinesisEnumeratorStateSerializer serializer =
      new KinesisEnumeratorStateSerializer();

  @Test
  void roundTripsAssignedFinishedAndPendingShards() throws IOException {
    KinesisEnumeratorState state =
        new KinesisEnumeratorState(
            Set.of("shardId-000000000003", "shardId-000000000004"),
            Set.of("shardId-000000000000"),
            List.of(
                KinesisShardSplit.fresh(
                    "shardId-000000000005",
                    List.of("shardId-000000000003", "shardId-000000000004"),
                    -1),
                KinesisShardSplit.fresh("shardId-000000000001", List.of(), 1_700_000_000_000L)
                    .after("4959")));
    KinesisEnumeratorState back =
        serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
    assertThat(back).isEqualTo(state);
    assertThat(serializer.deserialize(1, serializer.serialize(KinesisEnumeratorState.initial())))
        .isEqualTo(KinesisEnumeratorState.initial());
  }

  @Test
  void anUnknownVersionIsRefusedNamingIt() {
    assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 2");
  }
}
