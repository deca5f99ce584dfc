package io.lakestream.sql.connector.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.SqlQueries;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filter and projection push-down into the Delta source on a table of 20 small files (one per
 * version, disjoint id ranges, partitioned by {@code part}): the source admits only the files the
 * filters may match, counted in its progress metrics, for the initial snapshot and for later
 * versions, and the rows equal those of the same query without push-down.
 */
class DeltaSqlPushDownITCase {
  private static final DeltaTableSchema INPUT =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .build();

  @TempDir Path dir;
  private DeltaTable input;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  @BeforeEach
  void writeTwentyFiles() throws IOException {
    input = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    writer = new DeltaTableWriter(input, INPUT);
    commit = new DeltaAppendCommit(input, INPUT, "producer");
    commit.open();
    for (int v = 0; v < 20; v++) {
      append(v, v * 10L, "row-");
    }
  }

  /** Commits ids {@code from..from+9} of partition {@code p<v % 4>} as one file (version v+1). */
  private void append(int v, long from, String label) throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < from + 10; id++) {
      rows.add(new Object[] {id, label + id, BigDecimal.valueOf(id, 2), "p" + (v % 4)});
    }
    commit.commit(v + 1, writer.write(rows));
  }

  private String script(String idFilter) {
    String source =
        "(id BIGINT NOT NULL, label STRING, amount DECIMAL(12, 2), part STRING)"
            + " WITH ('connector' = 'delta', 'path' = '"
            + input.path()
            + "', 'maxFilesPerTrigger' = '4')";
    return "CREATE TABLE by_id "
        + source
        + ";\nCREATE TABLE by_part "
        + source
        + ";\nCREATE TABLE out_id (id BIGINT NOT NULL, label STRING) WITH ('connector' = 'delta',"
        + " 'path' = '"
        + out("out_id")
        + "');\nCREATE TABLE out_part (id BIGINT NOT NULL, part STRING) WITH ('connector' ="
        + " 'delta', 'path' = '"
        + out("out_part")
        + "');\nINSERT INTO out_id SELECT id, label FROM by_id WHERE "
        + idFilter
        + ";\nINSERT INTO out_part SELECT id, part FROM by_part WHERE part = 'p1';\n";
  }

  private String out(String name) {
    return dir.resolve(name).toUri().toString();
  }

  @Test
  void aStreamReadsOnlyTheFilesTheFiltersMayMatchOfTheSnapshotAndOfLaterVersions()
      throws Exception {
    StreamingQuery first =
        SqlQueries.availableNow(
            script("id BETWEEN 50 AND 79"), "push-down", dir.resolve("checkpoint"));
    first.awaitTermination();
    // data skipping: versions 6-8 hold ids 50..79; pruning: versions 2, 6, 10, 14, 18 are p1
    assertThat(filesOf(first, "by_id")).containsExactly(3L, 17L);
    assertThat(filesOf(first, "by_part")).containsExactly(5L, 15L);
    assertThat(rows("out_id")).isEqualTo(model(id -> id >= 50 && id <= 79, "row-"));
    assertThat(rows("out_part")).isEqualTo(partModel(id -> id < 200 && (id / 10) % 4 == 1));

    append(20, 200, "row-"); // p0
    append(21, 210, "row-"); // p1
    append(22, 220, "row-"); // p2
    append(23, 75, "late-"); // p3, ids 75..84 again
    // a changed filter (and projection: amount) is allowed on restart; files admitted before
    // stay read, the new filter applies to the files after the stream's position
    StreamingQuery second =
        SqlQueries.availableNow(
            script("(id BETWEEN 50 AND 79 OR id >= 225) AND amount IS NOT NULL"),
            "push-down",
            dir.resolve("checkpoint"));
    second.awaitTermination();
    // versions 23 (ids 220..229) and 24 (75..84) may match, 21 and 22 cannot (nor, found again
    // after the position, the snapshot's files that were skipped before)
    assertThat(filesOf(second, "by_id").get(0)).isEqualTo(2);
    assertThat(filesOf(second, "by_id").get(1)).isGreaterThanOrEqualTo(2);
    assertThat(filesOf(second, "by_part").get(0)).isEqualTo(1);
    assertThat(filesOf(second, "by_part").get(1)).isGreaterThanOrEqualTo(3);
    List<List<Object>> ids = model(id -> id >= 50 && id <= 79, "row-");
    ids.addAll(model(id -> id >= 225 && id <= 229, "row-"));
    ids.addAll(model(id -> id >= 75 && id <= 79, "late-"));
    ids.sort(ROW_ORDER);
    assertThat(rows("out_id")).isEqualTo(ids);
    List<List<Object>> parts = partModel(id -> id < 200 && (id / 10) % 4 == 1);
    parts.addAll(partModel(id -> id >= 210 && id <= 219));
    assertThat(rows("out_part")).isEqualTo(parts);
  }

  /** The source's files admitted and skipped, from the run's newest progress that reports them. */
  private static List<Long> filesOf(StreamingQuery query, String table) {
    long admitted = -1;
    long skipped = -1;
    for (QueryProgress progress : query.recentProgress()) {
      for (JsonNode source : progress.json().path("sources")) {
        JsonNode metrics = source.path("metrics");
        if (source.path("description").asText().endsWith("." + table)
            && metrics.has("numFilesSkipped")) {
          admitted = Math.max(admitted, metrics.path("numFilesAdmitted").asLong());
          skipped = Math.max(skipped, metrics.path("numFilesSkipped").asLong());
        }
      }
    }
    return List.of(admitted, skipped);
  }

  private static final Comparator<List<Object>> ROW_ORDER =
      Comparator.<List<Object>, Long>comparing(r -> (Long) r.get(0))
          .thenComparing(r -> (String) r.get(1));

  private List<List<Object>> rows(String table) {
    return new DeltaTableReader(DeltaTable.forPath(out(table)))
        .readLatest().stream().map(Arrays::asList).sorted(ROW_ORDER).collect(Collectors.toList());
  }

  private static List<List<Object>> model(LongPredicate ids, String label) {
    return LongStream.range(0, 300)
        .filter(ids)
        .mapToObj(id -> Arrays.<Object>asList(id, label + id))
        .collect(Collectors.toCollection(ArrayList::new));
  }

  private static List<List<Object>> partModel(LongPredicate ids) {
    return LongStream.range(0, 300)
        .filter(ids)
        .mapToObj(id -> Arrays.<Object>asList(id, "p1"))
        .collect(Collectors.toCollection(ArrayList::new));
  }

  @Test
  void boundedReadsWithPushDownEqualThoseWithoutAndExplainShowsWhatWasPushed() throws Exception {
    // one table per scan: a source's uid is its table's name
    String query =
        "SELECT 'between' AS q, id, label AS txt FROM s1"
            + " WHERE id BETWEEN 50 AND 79 AND part <> 'p2'\n"
            + "UNION ALL SELECT 'in-or', id, CAST(amount AS STRING) FROM s2"
            + " WHERE id IN (5, 155, 999) OR part = 'p3'\n"
            + "UNION ALL SELECT 'decimal', id, label FROM s3"
            + " WHERE amount > 1.50 AND amount <= 2.00\n"
            + "UNION ALL SELECT 'count', COUNT(*), CAST(NULL AS STRING) FROM s4 WHERE part = 'p0'\n"
            + "UNION ALL SELECT 'version', id, part FROM s5 /*+ OPTIONS('versionAsOf' = '10') */"
            + " WHERE id >= 95\n"
            + "UNION ALL SELECT 'all', COUNT(*), CAST(NULL AS STRING) FROM s6";
    TableEnvironment pushed = batch(true);
    TableEnvironment plain = batch(false);
    assertThat(pushed.explainSql(query))
        .contains("s1, filter=[and(AND(>=(id, 50), <=(id, 79)), <>(part, ")
        .contains("s2, filter=[OR(OR(OR(=(id, 5:BIGINT), =(id, 155:BIGINT)), =(id, 999:BIGINT)),")
        .contains("s3, filter=[and(>(amount, 1.50:DECIMAL(3, 2)), <=(amount, 2.00:DECIMAL(3, 2)))]")
        .contains("s4, filter=[=(part, _UTF-16LE'p0'")
        .contains("project=[part]]]")
        .contains("s5, filter=[>=(id, 95)], project=[id, part]]]");
    assertThat(plain.explainSql(query)).doesNotContain("filter=[");

    List<String> withPushDown = collect(pushed, query);
    assertThat(withPushDown).isEqualTo(collect(plain, query));
    // between: ids 50..79 but 60..69 (p2); in-or: 5 and the 50 ids of p3; decimal: 1.51..1.99;
    // count: the 50 rows of p0; version 10: ids 95..99; all: no column is needed
    assertThat(
            withPushDown.stream()
                .collect(Collectors.groupingBy(r -> r.split(",")[0], Collectors.counting())))
        .containsExactlyInAnyOrderEntriesOf(
            java.util.Map.of(
                "+I[between", 20L,
                "+I[in-or", 51L,
                "+I[decimal", 49L,
                "+I[count", 1L,
                "+I[version", 5L,
                "+I[all", 1L));
    assertThat(withPushDown).contains("+I[count, 50, null]", "+I[all, 200, null]");
  }

  private TableEnvironment batch(boolean pushDown) {
    Configuration conf = new Configuration();
    conf.set(OptimizerConfigOptions.TABLE_OPTIMIZER_SOURCE_PREDICATE_PUSHDOWN_ENABLED, pushDown);
    TableEnvironment tables =
        TableEnvironment.create(
            EnvironmentSettings.newInstance().inBatchMode().withConfiguration(conf).build());
    for (int i = 1; i <= 6; i++) {
      tables.executeSql(
          "CREATE TABLE s"
              + i
              + " (id BIGINT NOT NULL, label STRING, amount DECIMAL(12, 2), part STRING)"
              + " WITH ('connector' = 'delta', 'path' = '"
              + input.path()
              + "')");
    }
    return tables;
  }

  private static List<String> collect(TableEnvironment tables, String query) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = tables.executeSql(query).collect()) {
      it.forEachRemaining(r -> rows.add(r.toString()));
    }
    rows.sort(null);
    return rows;
  }
}
