package io.lakestream.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Flink-free delta-core uses these packages (the options catalog, the schema model), so no
 * source file directly in them may refer to Flink (the schema model's Flink side is its sub-package
 * {@code flink}).
 */
class FlinkFreePackagesTest {
  @ParameterizedTest
  @ValueSource(strings = {"options", "schema"})
  void noSourceFileMentionsFlink(String pkg) throws IOException {
    Path dir = Path.of("src/main/java/io/lakestream/connectors", pkg);
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
