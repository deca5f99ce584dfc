package io.lakestream.connectors.delta.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaAddedFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeltaSourceSplitSerializerTest {
  private final DeltaSourceSplitSerializer serializer = new DeltaSourceSplitSerializer();

  static DeltaSourceSplit split(long version, int index, boolean snapshot, long skip) {
    Map<String, String> partitions = new LinkedHashMap<>();
    partitions.put("day", "2024-05-01");
    partitions.put("region", null);
    partitions.put("name", "a b/ü");
    return new DeltaSourceSplit(
        new DeltaAddedFile(
            "file:/tmp/t/day=2024-05-01/part-" + index + ".parquet",
            version,
            index,
            snapshot,
            partitions,
            4_321L,
            index == 0 ? -1 : 99L),
        skip);
  }

  @Test
  void roundTripsEveryField() throws IOException {
    for (DeltaSourceSplit split :
        new DeltaSourceSplit[] {
          split(7, 3, false, 0),
          split(2, 0, true, 1_000_000_123L),
          new DeltaSourceSplit(
              new DeltaAddedFile("s3a://b/t/x.parquet", 0, 0, false, Map.of(), 0, 0), 0)
        }) {
      DeltaSourceSplit back =
          serializer.deserialize(serializer.getVersion(), serializer.serialize(split));
      assertThat(back).isEqualTo(split);
      assertThat(back.splitId()).isEqualTo(split.splitId());
      assertThat(back.file().partitionValues().keySet())
          .containsExactlyElementsOf(split.file().partitionValues().keySet());
    }
    assertThat(split(7, 3, false, 0).splitId()).isEqualTo("v-7-3");
    assertThat(split(2, 0, true, 0).splitId()).isEqualTo("snapshot-2-0");
  }

  @Test
  void anUnknownVersionIsRefused() throws IOException {
    byte[] bytes = serializer.serialize(split(1, 1, false, 0));
    assertThatThrownBy(() -> serializer.deserialize(99, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("99");
  }
}
