package io.lakestream.connectors.kinesis.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class KinesisShardSplitSerializerTest {
  private final KinesisShardSplitSerializer serializer = new KinesisShardSplitSerializer();

  @Test
  void roundTripsFreshReadAndFinishedSplits() throws IOException {
    KinesisShardSplit fresh = KinesisShardSplit.fresh("shardId-000000000002", List.of(), -1);
    KinesisShardSplit child =
        KinesisShardSplit.fresh(
            "shardId-000000000005", List.of("shardId-000000000001", "shardId-000000000002"), 17L);
    KinesisShardSplit read =
        child.after("49590338271490256608559692538361571095921575989136588898");
    KinesisShardSplit done =
        read.after("49590338271490256608559692538361571095921575989136588899").asFinished();
    for (KinesisShardSplit split : List.of(fresh, child, read, done)) {
      assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(split)))
          .isEqualTo(split);
    }
    assertThat(done.recordsRead()).isEqualTo(2);
    assertThat(done.finished()).isTrue();
  }

  @Test
  void anUnknownVersionIsRefusedNamingIt() {
    assertThatThrownBy(() -> serializer.deserialize(9, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 9");
  }
}
