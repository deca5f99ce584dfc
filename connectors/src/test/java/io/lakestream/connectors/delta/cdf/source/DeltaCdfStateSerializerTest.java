package io.lakestream.connectors.delta.cdf.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorStateSerializer;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Round trips of the CDF source's split and enumerator state serializers. */
class DeltaCdfStateSerializerTest {
  private static DeltaCdfSplit split(DeltaChangeFile.Kind kind, long skip) {
    Map<String, String> partitions = new HashMap<>();
    partitions.put("day", "2024-05-01");
    partitions.put("region", null);
    return new DeltaCdfSplit(
        new DeltaChangeFile(
            "file:/t/_change_data/day=2024-05-01/cdc-1.parquet",
            7,
            2,
            1_700_000_000_123L,
            kind,
            partitions,
            4096),
        skip);
  }

  @Test
  void splitRoundTrip() throws IOException {
    DeltaCdfSplitSerializer serializer = new DeltaCdfSplitSerializer();
    for (DeltaChangeFile.Kind kind : DeltaChangeFile.Kind.values()) {
      DeltaCdfSplit split = split(kind, 513);
      DeltaCdfSplit back =
          serializer.deserialize(serializer.getVersion(), serializer.serialize(split));
      assertThat(back).isEqualTo(split);
      assertThat(back.splitId()).isEqualTo("cdf-7-2");
    }
    assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
        .hasMessageContaining("Unknown Delta CDF source split version 99");
  }

  @Test
  void enumeratorStateRoundTrip() throws IOException {
    DeltaCdfEnumeratorStateSerializer serializer = new DeltaCdfEnumeratorStateSerializer();
    DeltaCdfEnumeratorState state =
        new DeltaCdfEnumeratorState(
            12,
            3,
            List.of(split(DeltaChangeFile.Kind.CDC, 0), split(DeltaChangeFile.Kind.REMOVE, 0)),
            41);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state)))
        .isEqualTo(state);
    DeltaCdfEnumeratorState empty = new DeltaCdfEnumeratorState(0, 0, List.of(), 0);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(empty)))
        .isEqualTo(empty);
  }
}
