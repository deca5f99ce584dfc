package io.lakestream.connectors.delta.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeltaEnumeratorStateSerializerTest {
  private final DeltaEnumeratorStateSerializer serializer = new DeltaEnumeratorStateSerializer();

  private static DeltaSourceSplit split(long version, int index) {
    return DeltaSourceSplit.of(
        new DeltaAddedFile(
            "file:/t/f-" + version + "-" + index + ".parquet",
            version,
            index,
            false,
            Map.of("p", "x"),
            10,
            7));
  }

  @Test
  void roundTripsPositionAndPendingSplitsInOrder() throws IOException {
    DeltaEnumeratorState state =
        new DeltaEnumeratorState(12, 5, false, List.of(split(12, 3), split(12, 4)), 1_234);
    DeltaEnumeratorState back =
        serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
    assertThat(back).isEqualTo(state);

    DeltaEnumeratorState snapshot = new DeltaEnumeratorState(3, 0, true, List.of(), 0);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(snapshot)))
        .isEqualTo(snapshot);
  }

  @Test
  void anUnknownVersionIsRefused() throws IOException {
    byte[] bytes = serializer.serialize(new DeltaEnumeratorState(1, 0, false, List.of(), 0));
    assertThatThrownBy(() -> serializer.deserialize(3, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 3");
  }
}
