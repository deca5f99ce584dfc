package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.pipelines.EmbeddedStages;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the demo's PostgreSQL server cannot start, the demo runs silver and gold without the
 * Lakebase stage and says so in one line naming why.
 */
class DemoLakebaseSkipTest {

  @Test
  void aServerThatCannotStartSkipsTheLakebaseStageWithOneLine(@TempDir Path output)
      throws Exception {
    Files.writeString(output.resolve(DemoPostgres.DIRECTORY), "not a directory");
    PipelineOptions options = new PipelineOptions(output.toUri(), 0, 0, 0);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try (EmbeddedStages stages =
        new OrdersDemo().embeddedStages(options, output.resolve("_checkpoints/demo").toString())) {
      assertThat(stages.stages())
          .extracting(Pipeline::name)
          .containsExactly("demo-silver", "demo-gold");
    } finally {
      System.setOut(stdout);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8).lines())
        .singleElement()
        .asString()
        .startsWith("Lakebase step skipped: the demo's embedded PostgreSQL server did not start (")
        .contains(DemoPostgres.DIRECTORY)
        .contains("the other stages run as usual");
  }
}
