package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MergeKeyRangesTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("region", ColumnType.STRING, false)
          .column("id", ColumnType.LONG, false)
          .column("code", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  private static String stats(String column, Object min, Object max) {
    String q = min instanceof String ? "\"" : "";
    return "{\"numRecords\":10,\"minValues\":{\""
        + column
        + "\":"
        + q
        + min
        + q
        + "},\"maxValues\":{\""
        + column
        + "\":"
        + q
        + max
        + q
        + "},\"nullCount\":{\""
        + column
        + "\":0}}";
  }

  @Test
  void partitionValuesAndLongStatisticsPrune() {
    MergeKeys keys = new MergeKeys(SCHEMA, List.of("region", "id"));
    MergeKeyRanges ranges =
        new MergeKeyRanges(
            keys, SCHEMA.partitionColumns(), List.of(List.of("eu", 5L), List.of("us", 50L)));
    assertThat(ranges.mayContainAny(Map.of("region", "eu"), stats("id", 0, 9))).isTrue();
    assertThat(ranges.mayContainAny(Map.of("region", "eu"), stats("id", 10, 60))).isFalse();
    assertThat(ranges.mayContainAny(Map.of("region", "us"), stats("id", 10, 60))).isTrue();
    assertThat(ranges.mayContainAny(Map.of("region", "ap"), stats("id", 0, 100))).isFalse();
    // no statistics: only the partition value decides
    assertThat(ranges.mayContainAny(Map.of("region", "eu"), null)).isTrue();
    // a null partition value matches no key
    java.util.HashMap<String, String> nullRegion = new java.util.HashMap<>();
    nullRegion.put("region", null);
    assertThat(ranges.mayContainAny(nullRegion, stats("id", 0, 100))).isFalse();
  }

  @Test
  void possiblyTruncatedStringMaximaDoNotPrune() {
    MergeKeys keys = new MergeKeys(SCHEMA, List.of("code"));
    MergeKeyRanges ranges =
        new MergeKeyRanges(keys, SCHEMA.partitionColumns(), List.of(List.of("zzz")));
    assertThat(ranges.mayContainAny(Map.of(), stats("code", "aaa", "bbb"))).isFalse();
    String longMax = "b".repeat(32);
    assertThat(ranges.mayContainAny(Map.of(), stats("code", "aaa", longMax))).isTrue();
  }

  @Test
  void integersInLongKeysEqualTheLongsReadBack() {
    MergeKeys keys = new MergeKeys(SCHEMA, List.of("id"));
    assertThat(keys.keyOf(new Object[] {"eu", 7, null}))
        .isEqualTo(keys.keyOf(new Object[] {"eu", 7L, "x"}));
    assertThat(keys.keyOf(new Object[] {"eu", null, "x"})).isNull();
  }
}
