package io.lakestream.connectors.delta.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorStateSerializer;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorState;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorStateSerializer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The byte formats and versions of the Delta and Delta CDF sources' split and enumerator state
 * serializers, field by field: these bytes are in checkpoints and savepoints, so they must not
 * change (a change needs a new version that still reads these).
 */
class DeltaSourceStateFormatsTest {
  private static final Map<String, String> PARTITIONS = partitions();

  private static Map<String, String> partitions() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("day", "2024-05-01");
    values.put("region", null);
    return values;
  }

  private static final DeltaSourceSplit SOURCE_SPLIT =
      new DeltaSourceSplit(
          new DeltaAddedFile("file:/t/day=2024-05-01/a.parquet", 7, 3, true, PARTITIONS, 4096, 99),
          12);

  private static final DeltaCdfSplit CDF_SPLIT =
      new DeltaCdfSplit(
          new DeltaChangeFile(
              "file:/t/_change_data/c.parquet",
              8,
              2,
              1_700_000_000_123L,
              DeltaChangeFile.Kind.CDC,
              PARTITIONS,
              512),
          5);

  private static void partitionBytes(DataOutputSerializer out) throws IOException {
    out.writeInt(2);
    out.writeUTF("day");
    out.writeBoolean(true);
    out.writeUTF("2024-05-01");
    out.writeUTF("region");
    out.writeBoolean(false);
  }

  private static void sourceSplitBytes(DataOutputSerializer out) throws IOException {
    out.writeUTF("file:/t/day=2024-05-01/a.parquet");
    out.writeLong(7);
    out.writeInt(3);
    out.writeBoolean(true);
    partitionBytes(out);
    out.writeLong(4096);
    out.writeLong(99);
    out.writeLong(12);
  }

  private static void cdfSplitBytes(DataOutputSerializer out) throws IOException {
    out.writeUTF("file:/t/_change_data/c.parquet");
    out.writeLong(8);
    out.writeInt(2);
    out.writeLong(1_700_000_000_123L);
    out.writeUTF("CDC");
    partitionBytes(out);
    out.writeLong(512);
    out.writeLong(5);
  }

  @Test
  void deltaSourceSplitVersionOne() throws IOException {
    DeltaSourceSplitSerializer serializer = new DeltaSourceSplitSerializer();
    DataOutputSerializer expected = new DataOutputSerializer(128);
    sourceSplitBytes(expected);

    assertThat(serializer.getVersion()).isEqualTo(1);
    assertThat(serializer.serialize(SOURCE_SPLIT)).isEqualTo(expected.getCopyOfBuffer());
    assertThat(serializer.deserialize(1, expected.getCopyOfBuffer())).isEqualTo(SOURCE_SPLIT);
  }

  @Test
  void deltaCdfSplitVersionOne() throws IOException {
    DeltaCdfSplitSerializer serializer = new DeltaCdfSplitSerializer();
    DataOutputSerializer expected = new DataOutputSerializer(128);
    cdfSplitBytes(expected);

    assertThat(serializer.getVersion()).isEqualTo(1);
    assertThat(serializer.serialize(CDF_SPLIT)).isEqualTo(expected.getCopyOfBuffer());
    assertThat(serializer.deserialize(1, expected.getCopyOfBuffer())).isEqualTo(CDF_SPLIT);
  }

  @Test
  void deltaEnumeratorStateVersionOne() throws IOException {
    DeltaEnumeratorStateSerializer serializer = new DeltaEnumeratorStateSerializer();
    DeltaEnumeratorState state =
        new DeltaEnumeratorState(7, 4, true, List.of(SOURCE_SPLIT, SOURCE_SPLIT), 1_234);
    DataOutputSerializer expected = new DataOutputSerializer(128);
    expected.writeLong(7);
    expected.writeInt(4);
    expected.writeBoolean(true);
    expected.writeLong(1_234);
    expected.writeInt(2);
    sourceSplitBytes(expected);
    sourceSplitBytes(expected);

    assertThat(serializer.getVersion()).isEqualTo(1);
    assertThat(serializer.serialize(state)).isEqualTo(expected.getCopyOfBuffer());
    assertThat(serializer.deserialize(1, expected.getCopyOfBuffer())).isEqualTo(state);
  }

  @Test
  void deltaCdfEnumeratorStateVersionTwo() throws IOException {
    DeltaCdfEnumeratorStateSerializer serializer = new DeltaCdfEnumeratorStateSerializer();
    DeltaCdfEnumeratorState state = new DeltaCdfEnumeratorState(8, 3, List.of(CDF_SPLIT), 41, 6);
    DataOutputSerializer expected = new DataOutputSerializer(128);
    expected.writeLong(8);
    expected.writeInt(3);
    expected.writeLong(41);
    expected.writeInt(1);
    cdfSplitBytes(expected);
    expected.writeLong(6);

    assertThat(serializer.getVersion()).isEqualTo(2);
    assertThat(serializer.serialize(state)).isEqualTo(expected.getCopyOfBuffer());
    assertThat(serializer.deserialize(2, expected.getCopyOfBuffer())).isEqualTo(state);
  }
}
