package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonFilesTest {
  @TempDir Path dir;

  @Test
  void aLocalWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws Exception {
    org.apache.flink.core.fs.Path target = new org.apache.flink.core.fs.Path(dir.toUri() + "a/b");
    JsonFiles.write(target, Map.of("v", 1));
    JsonFiles.write(target, Map.of("v", 2));

    assertThat(JsonFiles.read(target, JsonNode.class).orElseThrow().get("v").asInt()).isEqualTo(2);
    try (Stream<Path> files = Files.list(dir.resolve("a"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("b");
    }
  }

  @Test
  void aWriteKilledHalfwayLeavesOnlyAHiddenFileThatReadersSkip() throws Exception {
    EpochLog log = new CheckpointLocation(dir.toUri()).epochs();
    Path epoch = dir.resolve("offsets/3");
    Files.createDirectories(epoch);
    Files.writeString(epoch.resolve("orders"), "{\"offsets\":{\"p-0\":7}}");
    // what a process killed inside write() leaves behind: a truncated temporary file
    Files.writeString(epoch.resolve(".orders.5f0c.tmp"), "{\"offs");

    assertThat(log.readOffsets(3)).containsOnlyKeys("orders");
    assertThat(log.readOffsets(3).get("orders").path("offsets").path("p-0").asLong()).isEqualTo(7);
  }
}
