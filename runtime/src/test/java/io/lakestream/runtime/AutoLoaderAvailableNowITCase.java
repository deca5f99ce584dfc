package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Auto Loader to Delta with the availableNow trigger: a burst of files is ingested in epochs of at
 * most maxFilesPerTrigger files, then the run stops by itself; the next run ingests only the files
 * that arrived since, each exactly once, and a run with nothing new reads nothing.
 */
class AutoLoaderAvailableNowITCase {
  private static final int ROWS_PER_FILE = 10;
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("date", ColumnType.STRING)
          .build();

  @TempDir Path dir;

  private void writeFiles(int from, int to) throws IOException {
    for (int f = from; f < to; f++) {
      Path file =
          dir.resolve(String.format("landing/date=2026-11-%02d/f-%03d.json", 1 + f / 10, f));
      Files.createDirectories(file.getParent());
      List<String> lines = new ArrayList<>();
      for (long id = (long) f * ROWS_PER_FILE; id < (f + 1L) * ROWS_PER_FILE; id++) {
        lines.add("{\"id\":" + id + ",\"name\":\"row-" + id + "\"}");
      }
      Files.write(file, lines);
    }
  }

  private StreamingQuery start() throws Exception {
    String out = dir.resolve("bronze").toUri().toString();
    Dataflow dataflow =
        (env, query) ->
            AutoLoaderBuilder.forPath(dir.resolve("landing").toString())
                .name("landing-files")
                .options(
                    Map.of(
                        "cloudFiles.format", "json",
                        "cloudFiles.schemaLocation", dir.resolve("schema").toString(),
                        "cloudFiles.inferColumnTypes", "true",
                        "cloudFiles.maxFilesPerTrigger", "5"))
                .query(query)
                .build()
                .stream(env)
                .sinkTo(
                    DeltaSinkBuilder.<Row>forTable(
                            out,
                            SCHEMA,
                            r -> new Object[] {r.getField(0), r.getField(1), r.getField(2)})
                        .query(query)
                        .sinkName("bronze")
                        .build())
                .uid("bronze");
    return StreamingQueryBuilder.of(dataflow)
        .queryName("landing-bronze")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start();
  }

  private List<Long> bronzeIds() throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(dir.resolve("bronze").toUri().toString()))
        .readLatest().stream().map(r -> (Long) r[0]).sorted().collect(Collectors.toList());
  }

  private static List<QueryProgress> withInput(StreamingQuery q) {
    return q.recentProgress().stream().filter(p -> p.numInputRows() > 0).toList();
  }

  /**
   * The source's backlog in progress ({@code numFilesOutstanding}, {@code numBytesOutstanding}):
   * after the first epoch at least 23 - 2 x 5 files wait, fewer after each epoch, none at the end.
   */
  private static void assertBacklogShrinksToNothing(List<QueryProgress> epochs) {
    long previous = Long.MAX_VALUE;
    for (QueryProgress p : epochs) {
      JsonNode metrics = p.json().path("sources").get(0).path("metrics");
      long files = metrics.path("numFilesOutstanding").asLong(-1);
      assertThat(files).as("epoch %d: %s", p.batchId(), metrics).isBetween(0L, previous);
      assertThat(metrics.path("numBytesOutstanding").asLong() > 0).isEqualTo(files > 0);
      previous = files;
    }
    JsonNode first = epochs.get(0).json().path("sources").get(0).path("metrics");
    assertThat(first.path("numFilesOutstanding").asLong()).isGreaterThanOrEqualTo(13);
    assertThat(previous).as("nothing left once the run has read everything").isZero();
  }

  @Test
  void burstIngestedInBoundedEpochsThenTheRunStops() throws Exception {
    writeFiles(0, 23);

    StreamingQuery first = start();
    first.awaitTermination();
    assertThat(bronzeIds()).isEqualTo(LongStream.range(0, 230).boxed().toList());
    // input rows are the rows read (not the files): at most 5 files of 10 rows per epoch, so at
    // least 5 epochs, each reading the rows the sink wrote in it
    assertThat(withInput(first)).hasSizeGreaterThanOrEqualTo(5);
    assertThat(withInput(first))
        .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(5 * ROWS_PER_FILE))
        .allSatisfy(p -> assertThat(p.numInputRows()).isEqualTo(p.numOutputRows()));
    assertThat(withInput(first).stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(230);
    assertBacklogShrinksToNothing(withInput(first));

    writeFiles(23, 27);
    StreamingQuery second = start();
    second.awaitTermination();
    assertThat(bronzeIds()).isEqualTo(LongStream.range(0, 270).boxed().toList());
    assertThat(withInput(second).stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(40);

    StreamingQuery third = start();
    third.awaitTermination();
    assertThat(withInput(third)).as("no new files: nothing read").isEmpty();
    assertThat(bronzeIds()).hasSize(270);
    DeltaLogTxns.read(dir.resolve("bronze"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(third.appId(), dir.resolve("checkpoint"), "bronze");
  }
}
