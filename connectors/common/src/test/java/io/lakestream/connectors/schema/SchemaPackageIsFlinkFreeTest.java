package io.lakestream.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Flink-free delta-core uses this package, so no source file of it may refer to Flink (its
 * sub-package {@code flink} holds the Flink side).
 */
class SchemaPackageIsFlinkFreeTest {
  @Test
  void noSourceFileMentionsFlink() throws IOException {
    Path dir = Path.of("src/main/java/io/lakestream/connectors/schema");
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
