package io.lakestream.pipelines.autoloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.Pipelines;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.DataflowInspector;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.SinkKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** E1's options are checked before any job starts, each error naming the option. */
class OrdersBronzeFromFilesTest {
  @TempDir Path dir;

  private Dataflow dataflow(Map<String, String> options) {
    return Pipelines.byName("bronze-files")
        .dataflow(new PipelineOptions(dir.resolve("out").toUri(), 0, 0, 0, options));
  }

  @Test
  void registeredUnderItsCliName() {
    assertThat(Pipelines.byName("bronze-files")).isInstanceOf(OrdersBronzeFromFiles.class);
  }

  @Test
  void validOptionsBuildADataflow() throws Exception {
    Path landing = dir.resolve("landing");
    Files.createDirectories(landing);
    Files.writeString(landing.resolve("part-0.json"), "{\"order_id\":1,\"customer\":\"c-1\"}\n");
    Dataflow dataflow =
        dataflow(
            Map.of(
                "path", landing.toString(),
                "cloudFiles.maxFilesPerTrigger", "10",
                "mergeSchema", "true",
                "fs.s3a.endpoint", "http://127.0.0.1:9"));

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    dataflow.build(
        env,
        new QueryContext(
            "qid",
            "bronze-files",
            "run",
            "bronze-files-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND));
    DataflowInspector inspector = new DataflowInspector(new ArrayList<>(env.getTransformations()));
    inspector.requireUids();
    QueryFingerprint fingerprint = inspector.fingerprint("rocksdb", 128);
    assertThat(fingerprint.sources())
        .singleElement()
        .satisfies(
            source -> {
              assertThat(source.name()).isEqualTo(OrdersBronzeFromFiles.STREAM);
              assertThat(source.type()).isEqualTo("cloudFiles");
              assertThat(source.target()).contains(landing.toString());
            });
    assertThat(fingerprint.sinks())
        .singleElement()
        .satisfies(
            sink -> {
              assertThat(sink.name()).isEqualTo("bronze-files-sink");
              assertThat(sink.kind()).isEqualTo(SinkKind.DELTA);
              assertThat(sink.target()).endsWith("/out/" + OrdersBronzeFromFiles.TABLE);
            });
    assertThat(inspector.inputPaths()).singleElement().asString().contains(landing.toString());
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
