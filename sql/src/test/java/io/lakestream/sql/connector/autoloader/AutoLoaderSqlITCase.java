package io.lakestream.sql.connector.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.FailOnce;
import io.lakestream.sql.SqlQueries;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files to Delta in Flink SQL under the query runtime: JSON files in {@code region=...}
 * directories, the schema inferred into the schema location with a hint, mistyped values in the
 * rescued data column, the file's name and size as metadata columns, a task failure mid-epoch and a
 * second run over new files from the first one's savepoint, all checked row for row against the
 * files written.
 */
class AutoLoaderSqlITCase {
  private static final int ROWS_PER_FILE = 20;

  @TempDir Path dir;
  private final List<List<Object>> model = new ArrayList<>();

  @BeforeEach
  void disarm() {
    FailOnce.disarm();
  }

  /**
   * Writes files {@code from..to-1}, file f to {@code region=eu} or {@code region=us} in turn;
   * every ninth row's amount is not a number (it goes to the rescued data, the amount null).
   */
  private void write(int from, int to) throws IOException {
    for (int f = from; f < to; f++) {
      String region = f % 2 == 0 ? "eu" : "us";
      Path file = dir.resolve("landing/region=" + region + "/part-" + f + ".json");
      Files.createDirectories(file.getParent());
      StringBuilder lines = new StringBuilder();
      List<List<Object>> rows = new ArrayList<>();
      for (int r = 0; r < ROWS_PER_FILE; r++) {
        long id = f * 100L + r;
        boolean mistyped = id % 9 == 0;
        String amount = mistyped ? "\"n/a-" + id + "\"" : Double.toString(id / 4.0);
        lines.append("{\"id\": ").append(id).append(", \"amount\": ").append(amount).append("}\n");
        rows.add(
            new ArrayList<>(
                Arrays.asList(
                    id,
                    mistyped ? null : id / 4.0,
                    region,
                    mistyped ? "n/a-" + id : null,
                    "part-" + f + ".json")));
      }
      Files.writeString(file, lines);
      long size = Files.size(file);
      rows.forEach(row -> row.add(size));
      model.addAll(rows);
    }
  }

  private String bronze() {
    return dir.resolve("bronze").toUri().toString();
  }

  private StreamingQuery start() throws Exception {
    String script =
        """
        CREATE TABLE landing (
          id BIGINT, amount DOUBLE, region STRING, _rescued_data STRING,
          file_name STRING METADATA FROM '_metadata.file_name' VIRTUAL,
          file_size BIGINT METADATA FROM '_metadata.file_size' VIRTUAL
        ) WITH ('connector' = 'cloudFiles', 'path' = '%s', 'cloudFiles.format' = 'json',
                'cloudFiles.schemaLocation' = '%s',
                'cloudFiles.schemaHints' = 'id BIGINT, amount DOUBLE',
                'cloudFiles.partitionColumns' = 'region', 'cloudFiles.maxFilesPerTrigger' = '2');
        CREATE TABLE bronze (
          id BIGINT, amount DOUBLE, region STRING, rescued_amount STRING, file_name STRING,
          file_size BIGINT
        ) WITH ('connector' = 'delta', 'path' = '%s');
        CREATE TEMPORARY FUNCTION fail_once AS '%s';
        INSERT INTO bronze
        SELECT fail_once(id), amount, region, JSON_VALUE(_rescued_data, '$.amount'), file_name,
               file_size
        FROM landing;
        """
            .formatted(
                dir.resolve("landing").toUri(),
                dir.resolve("schema").toUri(),
                bronze(),
                FailOnce.class.getName());
    return SqlQueries.availableNow(script, "sql-files-bronze", dir.resolve("checkpoint"));
  }

  private List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream()
        .sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)))
        .collect(Collectors.toList());
  }

  private List<List<Object>> bronzeRows() throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(bronze()))
        .readLatest().stream().map(Arrays::asList).collect(Collectors.toList());
  }

  @Test
  void everyFileReachesTheTableOnceThroughAFailureAndARestart() throws Exception {
    write(0, 6);
    FailOnce.arm(dir.resolve("checkpoint"));
    StreamingQuery first = start();
    first.awaitTermination();
    assertThat(FailOnce.failed()).as("the injected task failure happened").isTrue();
    assertThat(sorted(bronzeRows())).containsExactlyElementsOf(sorted(model));

    write(6, 9); // the second run resumes from the first one's savepoint and file ledger
    StreamingQuery second = start();
    second.awaitTermination();
    assertThat(sorted(bronzeRows())).containsExactlyElementsOf(sorted(model));
    // input rows are the rows read: each epoch's are the rows it wrote, the run's the 3 new files'
    assertThat(second.recentProgress())
        .allSatisfy(p -> assertThat(p.numInputRows()).isEqualTo(p.numOutputRows()))
        .anySatisfy(p -> assertThat(p.numInputRows()).isPositive());
    assertThat(second.recentProgress().stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(3L * ROWS_PER_FILE);
    DeltaLogTxns.read(dir.resolve("bronze")).assertEachEpochOnce();
  }
}
