package io.lakestream.pipelines.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example E1 as SQL ({@code pipelines/sql/e1_bronze_files.sql}) against the Java
 * pipeline {@link OrdersBronzeFromFiles}, both reading one landing directory of JSON files in
 * {@code date=...} directories in two availableNow runs (new files in between): the SQL table holds
 * the Java one's rows row for row, every line of every file once (the second run reads only the
 * files new to it).
 */
class OrdersBronzeFromFilesSqlITCase {
  private static final List<String> COLUMNS =
      List.of("order_id", "customer", "amount", "date", "_rescued_data");

  @TempDir Path dir;

  private Path landing() {
    return dir.resolve("sql/landing/orders");
  }

  /** Writes file {@code f} of 25 orders under {@code date=2026-05-0<1 + f % 2>}. */
  private void write(int f) throws IOException {
    Path file = landing().resolve("date=2026-05-0" + (1 + f % 2) + "/part-" + f + ".json");
    Files.createDirectories(file.getParent());
    StringBuilder lines = new StringBuilder();
    for (long id = f * 100L; id < f * 100L + 25; id++) {
      lines.append("{\"order_id\":" + id + ",\"customer\":\"c-" + id % 7 + "\",\"amount\":");
      lines.append(id + ".5}\n");
    }
    Files.writeString(file, lines);
  }

  private void runJava() throws Exception {
    Map<String, String> options =
        Map.of("path", landing().toString(), "cloudFiles.inferColumnTypes", "true");
    StreamingQueryBuilder.of(
            new OrdersBronzeFromFiles()
                .dataflow(new PipelineOptions(dir.resolve("java").toUri(), 0, 0, 0, options)))
        .queryName("bronze-files")
        .checkpointLocation(dir.resolve("java/_checkpoints/bronze-files").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .start()
        .awaitTermination();
  }

  private StreamingQuery runSql() throws Exception {
    return SqlExample.of("e1_bronze_files.sql").localized(dir.resolve("sql"), null).run();
  }

  /** The rows by column name, sorted by order id. */
  private List<List<Object>> rows(String side) throws IOException {
    DeltaTableReader table =
        new DeltaTableReader(
            DeltaTable.forPath(dir.resolve(side + "/orders_bronze_files").toUri().toString()));
    List<String> names = table.columnNames();
    assertThat(names).as("%s columns", side).containsExactlyInAnyOrderElementsOf(COLUMNS);
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : table.readLatest()) {
      List<Object> byName = new ArrayList<>();
      COLUMNS.forEach(c -> byName.add(row[names.indexOf(c)]));
      rows.add(byName);
    }
    rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
    return rows;
  }

  @Test
  void theSqlFileWritesTheTableOfTheJavaPipeline() throws Exception {
    for (int f = 0; f < 3; f++) {
      write(f);
    }
    runJava();
    StreamingQuery first = runSql();
    write(3);
    write(4);
    runJava();
    StreamingQuery second = runSql();

    List<List<Object>> sql = rows("sql");
    assertThat(sql).as("every line once: no file read twice").hasSize(125).isEqualTo(rows("java"));
    assertThat(sql.get(0)).isEqualTo(java.util.Arrays.asList(0L, "c-0", 0.5, "2026-05-01", null));
    assertThat(first.appId()).isEqualTo(second.appId());
    DeltaLogTxns.read(dir.resolve("sql/orders_bronze_files")).assertEachEpochOnce();
  }
}
