package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.sink.EpochListener;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.logging.CapturedLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema inference and addNewColumns end to end: the first run infers the schema from the files and
 * records it as _schemas/0; a file with a new column stops the next run with UnknownFieldException
 * after _schemas/1 is recorded; the run after it reads _schemas/1 without inferring, restores the
 * checkpoint and ingests that file with the new column. Every row once.
 */
class AutoLoaderSchemaEvolutionITCase {
  @TempDir Path dir;

  private final AtomicReference<AutoLoader> lastBuilt = new AtomicReference<>();

  private void write(String key, List<String> lines) throws IOException {
    Path file = dir.resolve("landing").resolve(key);
    Files.createDirectories(file.getParent());
    Files.write(file, lines);
  }

  private StreamingQuery start() throws Exception {
    return start(SchemaChangeRestarts.off());
  }

  private StreamingQuery start(SchemaChangeRestarts restarts) throws Exception {
    String out = dir.resolve("bronze").toString();
    Dataflow dataflow =
        (env, query) -> {
          AutoLoader loader =
              AutoLoaderBuilder.forPath(dir.resolve("landing").toString())
                  .name("landing-files")
                  .options(
                      Map.of(
                          "cloudFiles.format", "json",
                          "cloudFiles.schemaLocation", dir.resolve("schema").toString(),
                          "cloudFiles.inferColumnTypes", "true"))
                  .query(query)
                  .build();
          lastBuilt.set(loader);
          loader.stream(env)
              .sinkTo(
                  JsonLinesFileSink.create(
                      out, AutoLoaderSchemaEvolutionITCase::encode, EpochListener.none()))
              .uid("bronze");
        };
    return StreamingQueryBuilder.of(dataflow)
        .queryName("landing-bronze")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .restartOnSchemaChange(restarts)
        .start();
  }

  private static String encode(Row row) {
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < row.getArity(); i++) {
      fields.add(String.valueOf(row.getField(i)));
    }
    return String.join("|", fields);
  }

  private List<String> bronze() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("bronze"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    return lines.stream().sorted().toList();
  }

  private List<String> schemaVersions() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("schema/_schemas"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d+"))
          .sorted()
          .toList();
    }
  }

  @Test
  void byDefaultANewColumnRestartsTheQueryByItselfWithTheRecordedSchema() throws Exception {
    write("date=2026-11-28/a.json", List.of("{\"id\":1,\"name\":\"a\"}"));
    start(SchemaChangeRestarts.defaults()).awaitTermination();
    write("date=2026-11-29/c.json", List.of("{\"id\":4,\"name\":\"d\",\"amount\":12.5}"));

    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = start(SchemaChangeRestarts.defaults());
      String firstRun = query.runId();
      query.awaitTermination();
      assertThat(query.runId()).as("a new run after the restart").isNotEqualTo(firstRun);
      assertThat(logs.lines())
          .anyMatch(l -> l.contains("input schema changed (columns [amount])"))
          .anyMatch(l -> l.contains("restart 1 of at most 5 per hour"));
    }
    assertThat(lastBuilt.get().schema().ddl()).isEqualTo("id BIGINT, name STRING, amount DOUBLE");
    assertThat(schemaVersions()).containsExactly("0", "1");
    assertThat(bronze()).containsExactly("1|a|2026-11-28|null", "4|d|12.5|2026-11-29|null");
  }

  @Test
  void newColumnStopsTheRunAndTheNextRunIngestsItWithTheRecordedSchema() throws Exception {
    write(
        "date=2026-11-28/a.json",
        List.of("{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}"));
    write("date=2026-11-28/b.json", List.of("{\"id\":3,\"name\":\"c\"}"));

    StreamingQuery first = start();
    first.awaitTermination();
    assertThat(lastBuilt.get().schemaVersion()).isZero();
    assertThat(lastBuilt.get().schema().ddl()).isEqualTo("id BIGINT, name STRING");
    assertThat(schemaVersions()).containsExactly("0");
    assertThat(bronze())
        .containsExactly("1|a|2026-11-28|null", "2|b|2026-11-28|null", "3|c|2026-11-28|null");

    write(
        "date=2026-11-29/c.json",
        List.of("{\"id\":4,\"name\":\"d\",\"amount\":12.5}", "{\"id\":5,\"name\":\"e\"}"));
    write("date=2026-11-29/d.json", List.of("{\"id\":6,\"name\":\"f\"}"));
    StreamingQuery second = start();
    assertThatThrownBy(second::awaitTermination)
        .hasStackTraceContaining(UnknownFieldException.class.getName())
        .hasStackTraceContaining("new columns [amount]")
        .hasStackTraceContaining("recorded schema version 1")
        .extracting(e -> ((StreamingQueryException) e).errorClass())
        .isEqualTo("UNKNOWN_FIELD_EXCEPTION");
    assertThat(schemaVersions()).containsExactly("0", "1");

    StreamingQuery third = start();
    third.awaitTermination();
    assertThat(lastBuilt.get().schemaVersion()).isEqualTo(1);
    assertThat(lastBuilt.get().schema().ddl()).isEqualTo("id BIGINT, name STRING, amount DOUBLE");
    assertThat(schemaVersions()).as("no inference on restart").containsExactly("0", "1");
    assertThat(bronze())
        .containsExactly(
            "1|a|2026-11-28|null",
            "2|b|2026-11-28|null",
            "3|c|2026-11-28|null",
            "4|d|12.5|2026-11-29|null",
            "5|e|null|2026-11-29|null",
            "6|f|null|2026-11-29|null");
  }
}
