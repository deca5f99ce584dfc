package io.lakestream.connectors.delta.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorStateSerializer;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorState;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorStateSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The byte formats and versions of the Delta and Delta CDF sources' split and enumerator state
 * serializers, field by field: these bytes are in checkpoints and savepoints, so they must not
 * change (a change needs a new version that still reads these). The older versions' bytes are
 * written here as they were, and must still be read.
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

  private static final DeltaDeletionVector DV =
      new DeltaDeletionVector("u", "ab^-aqEH.-t@S}K{vb[*k^", 1, 40, 6);

  private static final DeltaSourceSplit SOURCE_SPLIT_WITH_DV =
      new DeltaSourceSplit(
          new DeltaAddedFile(
              "file:/t/day=2024-05-01/a.parquet", 7, 3, true, PARTITIONS, 4096, 99, DV),
          12);

  private static final DeltaCdfSplit CDF_SPLIT_WITH_VECTORS =
      new DeltaCdfSplit(
          new DeltaChangeFile(
              "file:/t/_change_data/c.parquet",
              8,
              2,
              1_700_000_000_123L,
              DeltaChangeFile.Kind.CDC,
              PARTITIONS,
              512,
              null,
              DV),
          5);

  /** A deletion vector's bytes (version 2 formats), or its absence. */
  private static void vectorBytes(DataOutputSerializer out, DeltaDeletionVector dv)
      throws IOException {
    out.writeBoolean(dv != null);
    if (dv != null) {
      out.writeUTF(dv.storageType());
      byte[] path = dv.pathOrInlineDv().getBytes(StandardCharsets.UTF_8);
      out.writeInt(path.length);
      out.write(path);
      out.writeInt(dv.offset());
      out.writeInt(dv.sizeInBytes());
      out.writeLong(dv.cardinality());
    }
  }

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
  void deltaSourceSplitVersionTwoAddsTheDeletionVectorAndStillReadsVersionOne() throws IOException {
    DeltaSourceSplitSerializer serializer = new DeltaSourceSplitSerializer();
    DataOutputSerializer v1 = new DataOutputSerializer(128);
    sourceSplitBytes(v1);
    DataOutputSerializer v2 = new DataOutputSerializer(128);
    sourceSplitBytes(v2);
    vectorBytes(v2, DV);

    assertThat(serializer.getVersion()).isEqualTo(2);
    assertThat(serializer.serialize(SOURCE_SPLIT_WITH_DV)).isEqualTo(v2.getCopyOfBuffer());
    assertThat(serializer.deserialize(2, v2.getCopyOfBuffer())).isEqualTo(SOURCE_SPLIT_WITH_DV);
    assertThat(serializer.deserialize(1, v1.getCopyOfBuffer())).isEqualTo(SOURCE_SPLIT);
  }

  @Test
  void deltaCdfSplitVersionTwoAddsTheVectorsAndStillReadsVersionOne() throws IOException {
    DeltaCdfSplitSerializer serializer = new DeltaCdfSplitSerializer();
    DataOutputSerializer v1 = new DataOutputSerializer(128);
    cdfSplitBytes(v1);
    DataOutputSerializer v2 = new DataOutputSerializer(128);
    cdfSplitBytes(v2);
    vectorBytes(v2, null);
    vectorBytes(v2, DV);

    assertThat(serializer.getVersion()).isEqualTo(2);
    assertThat(serializer.serialize(CDF_SPLIT_WITH_VECTORS)).isEqualTo(v2.getCopyOfBuffer());
    assertThat(serializer.deserialize(2, v2.getCopyOfBuffer())).isEqualTo(CDF_SPLIT_WITH_VECTORS);
    assertThat(serializer.deserialize(1, v1.getCopyOfBuffer())).isEqualTo(CDF_SPLIT);
  }

  @Test
  void deltaEnumeratorStateVersionTwoAndOne() throws IOException {
    DeltaEnumeratorStateSerializer serializer = new DeltaEnumeratorStateSerializer();
    DeltaEnumeratorState state =
        new DeltaEnumeratorState(7, 4, true, List.of(SOURCE_SPLIT, SOURCE_SPLIT_WITH_DV), 1_234);
    DataOutputSerializer v2 = enumeratorHeader();
    sourceSplitBytes(v2);
    vectorBytes(v2, null);
    sourceSplitBytes(v2);
    vectorBytes(v2, DV);
    DataOutputSerializer v1 = enumeratorHeader();
    sourceSplitBytes(v1);
    sourceSplitBytes(v1);

    assertThat(serializer.getVersion()).isEqualTo(2);
    assertThat(serializer.serialize(state)).isEqualTo(v2.getCopyOfBuffer());
    assertThat(serializer.deserialize(2, v2.getCopyOfBuffer())).isEqualTo(state);
    assertThat(serializer.deserialize(1, v1.getCopyOfBuffer()))
        .isEqualTo(
            new DeltaEnumeratorState(7, 4, true, List.of(SOURCE_SPLIT, SOURCE_SPLIT), 1_234));
  }

  private static DataOutputSerializer enumeratorHeader() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeLong(7);
    out.writeInt(4);
    out.writeBoolean(true);
    out.writeLong(1_234);
    out.writeInt(2);
    return out;
  }

  @Test
  void deltaCdfEnumeratorStateVersionThreeTwoAndOne() throws IOException {
    DeltaCdfEnumeratorStateSerializer serializer = new DeltaCdfEnumeratorStateSerializer();
    DeltaCdfEnumeratorState state =
        new DeltaCdfEnumeratorState(8, 3, List.of(CDF_SPLIT_WITH_VECTORS), 41, 6);
    DataOutputSerializer v3 = cdfEnumeratorHeader();
    cdfSplitBytes(v3);
    vectorBytes(v3, null);
    vectorBytes(v3, DV);
    v3.writeLong(6);
    DataOutputSerializer v2 = cdfEnumeratorHeader();
    cdfSplitBytes(v2);
    v2.writeLong(6);
    DataOutputSerializer v1 = cdfEnumeratorHeader();
    cdfSplitBytes(v1);

    assertThat(serializer.getVersion()).isEqualTo(3);
    assertThat(serializer.serialize(state)).isEqualTo(v3.getCopyOfBuffer());
    assertThat(serializer.deserialize(3, v3.getCopyOfBuffer())).isEqualTo(state);
    assertThat(serializer.deserialize(2, v2.getCopyOfBuffer()))
        .isEqualTo(new DeltaCdfEnumeratorState(8, 3, List.of(CDF_SPLIT), 41, 6));
    assertThat(serializer.deserialize(1, v1.getCopyOfBuffer()))
        .isEqualTo(
            new DeltaCdfEnumeratorState(
                8, 3, List.of(CDF_SPLIT), 41, DeltaCdfEnumeratorState.NO_SNAPSHOT));
  }

  private static DataOutputSerializer cdfEnumeratorHeader() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    out.writeLong(8);
    out.writeInt(3);
    out.writeLong(41);
    out.writeInt(1);
    return out;
  }
}
