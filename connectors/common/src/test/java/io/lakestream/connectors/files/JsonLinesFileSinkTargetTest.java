package io.lakestream.connectors.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.sink.EpochListener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesFileSinkTargetTest {
  @TempDir Path tmp;

  @Test
  void targetOfALocalPathDoesNotDependOnWhetherTheTableExists() throws Exception {
    Path table = tmp.resolve("table");
    String before =
        JsonLinesFileSink.<String>create(table.toString(), row -> row, EpochListener.none())
            .sinkTarget();
    Files.createDirectories(table);
    String after =
        JsonLinesFileSink.<String>create(table.toString(), row -> row, EpochListener.none())
            .sinkTarget();

    assertThat(after).isEqualTo(before).isEqualTo("file:" + table.toAbsolutePath());
  }
}
