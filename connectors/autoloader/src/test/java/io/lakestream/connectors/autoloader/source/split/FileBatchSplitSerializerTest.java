package io.lakestream.connectors.autoloader.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileBatchSplitSerializerTest {
  @Test
  void roundTrips() throws IOException {
    FileBatchSplitSerializer serializer = new FileBatchSplitSerializer();
    FileBatchSplit split =
        new FileBatchSplit(
            "files-1",
            List.of(
                new DiscoveredFile("date=2026-11-29/a.json", 120, 1_700_000_000_000L),
                new DiscoveredFile("date=2026-11-29/ü b.json", 0, 1L)));
    byte[] bytes = serializer.serialize(split);
    assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(split);
    assertThatThrownBy(() -> serializer.deserialize(99, bytes))
        .hasMessageContaining("Unknown Auto Loader split version 99");
  }
}
