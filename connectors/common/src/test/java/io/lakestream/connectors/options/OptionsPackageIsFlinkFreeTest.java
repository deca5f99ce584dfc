package io.lakestream.connectors.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The Flink-free delta-core uses this package, so no source file of it may refer to Flink. */
class OptionsPackageIsFlinkFreeTest {
  @Test
  void noSourceFileMentionsFlink() throws IOException {
    Path dir = Path.of("src/main/java/io/lakestream/connectors/options");
    List<Path> sources;
    try (Stream<Path> files = Files.list(dir)) {
      sources = files.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(sources).hasSizeGreaterThan(5);
    for (Path source : sources) {
      assertThat(Files.readString(source)).as(source.toString()).doesNotContain("org.apache.flink");
    }
  }
}
