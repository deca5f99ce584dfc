package io.lakestream.pipelines.autoloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** E1's options are checked before any job starts, each error naming the option. */
class OrdersBronzeFromFilesTest {
  @TempDir Path dir;

  private void dataflow(Map<String, String> options) {
    Pipelines.byName("bronze-files")
        .dataflow(new PipelineOptions(dir.resolve("out").toUri(), 0, 0, 0, options));
  }

  @Test
  void registeredUnderItsCliName() {
    assertThat(Pipelines.byName("bronze-files")).isInstanceOf(OrdersBronzeFromFiles.class);
  }

  @Test
  void validOptionsBuildADataflow() {
    dataflow(
        Map.of(
            "path", dir.resolve("landing").toString(),
            "cloudFiles.maxFilesPerTrigger", "10",
            "mergeSchema", "true",
            "fs.s3a.endpoint", "http://127.0.0.1:9"));
  }

  @Test
  void theLandingPathIsRequired() {
    assertThatThrownBy(() -> dataflow(Map.of()))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("-o path=")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_OPTION");
  }

  @Test
  void unknownOptionsListTheValidOnes() {
    assertThatThrownBy(() -> dataflow(Map.of("path", "/x", "subscribe", "orders")))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("unknown option 'subscribe'")
        .hasMessageContaining("cloudFiles.*")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_OPTION");
    assertThatThrownBy(() -> dataflow(Map.of("path", "/x", "cloudFiles.bogus", "1")))
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("cloudFiles.bogus")
        .hasMessageContaining("cloudFiles.schemaLocation");
  }

  @Test
  void badValuesNameTheOption() {
    assertThatThrownBy(() -> dataflow(Map.of("path", "/x", "mergeSchema", "maybe")))
        .hasMessageContaining("mergeSchema must be true or false");
    assertThatThrownBy(() -> dataflow(Map.of("path", "/x", "cloudFiles.maxFilesPerTrigger", "0")))
        .hasMessageContaining("cloudFiles.maxFilesPerTrigger");
  }

  @Test
  void theSchemaLocationMustNotBeInsideTheLandingPath() {
    String landing = dir.resolve("landing").toString();
    assertThatThrownBy(
            () ->
                dataflow(
                    Map.of("path", landing, "cloudFiles.schemaLocation", landing + "/_schemas")))
        .hasMessageContaining("cloudFiles.schemaLocation")
        .hasMessageContaining("inside the input path");
  }
}
