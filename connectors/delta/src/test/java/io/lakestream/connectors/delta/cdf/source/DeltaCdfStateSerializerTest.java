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
import org.apache.flink.core.memory.DataOutputSerializer;
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
            41,
            DeltaCdfEnumeratorState.NO_SNAPSHOT);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state)))
        .isEqualTo(state);
    DeltaCdfEnumeratorState snapshot = DeltaCdfEnumeratorState.startingWithSnapshotOf(9);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(snapshot)))
        .isEqualTo(snapshot)
        .extracting(DeltaCdfEnumeratorState::snapshotVersion)
        .isEqualTo(9L);
    assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
        .hasMessageContaining("Unknown Delta CDF source enumerator state version 99");
  }

  /** A checkpoint written before the snapshot version existed restores without a snapshot. */
  @Test
  void aVersionOneEnumeratorStateRestoresWithoutASnapshot() throws IOException {
    DataOutputSerializer v1 = new DataOutputSerializer(128);
    v1.writeLong(12); // nextVersion
    v1.writeInt(3); // nextIndex
    v1.writeLong(41); // filesAdmitted
    v1.writeInt(1); // pending splits
    DeltaCdfSplitSerializer.write(split(DeltaChangeFile.Kind.ADD, 7), v1);

    DeltaCdfEnumeratorState restored =
        new DeltaCdfEnumeratorStateSerializer().deserialize(1, v1.getCopyOfBuffer());

    assertThat(restored)
        .isEqualTo(
            new DeltaCdfEnumeratorState(
                12,
                3,
                List.of(split(DeltaChangeFile.Kind.ADD, 7)),
                41,
                DeltaCdfEnumeratorState.NO_SNAPSHOT));
  }
}
