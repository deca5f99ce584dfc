package io.lakestream.connectors.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class StagedFileSerializerTest {
  private final StagedFileSerializer serializer = new StagedFileSerializer();

  @Test
  void roundTrips() throws IOException {
    StagedFile file = new StagedFile("file:/t/_staging/p.jsonl", "file:/t/p.jsonl", 3, 99);
    assertThat(serializer.deserialize(1, serializer.serialize(file))).isEqualTo(file);
  }

  @Test
  void refusesUnknownVersion() {
    assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 2");
  }
}
