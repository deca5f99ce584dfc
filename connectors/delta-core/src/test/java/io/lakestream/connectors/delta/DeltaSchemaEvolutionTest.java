package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mergeSchema on real tables: evolution, column mapping, old rows NULL, refused changes. */
class DeltaSchemaEvolutionTest {
  @TempDir Path dir;

  private static DeltaTableSchema.Builder v1() {
    return DeltaTableSchema.builder()
        .column("id", ColumnType.LONG, false)
        .column("name", ColumnType.STRING)
        .column("part", ColumnType.STRING);
  }

  private static DeltaTableSchema v2(boolean partitioned) {
    DeltaTableSchema.Builder b = v1().column("score", ColumnType.INT);
    return (partitioned ? b.partitionedBy("part") : b).build();
  }

  private static List<Object[]> rows(long from, long to, boolean withScore) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(
          withScore
              ? new Object[] {id, "n" + id, "p" + (id % 2), (int) id * 10}
              : new Object[] {id, "n" + id, "p" + (id % 2)});
    }
    return rows;
  }

  private List<String> readAll(DeltaTable table) throws IOException {
    return new DeltaTableReader(table)
        .readLatest().stream().map(Arrays::toString).sorted().toList();
  }

  private void appendEpoch(
      DeltaTable table, DeltaTableSchema schema, boolean merge, long epoch, List<Object[]> rows)
      throws IOException {
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app", 10, merge);
    commit.open();
    assertThat(
            commit.commit(epoch, new DeltaTableWriter(table, schema, merge).write(rows)).status())
        .isEqualTo(Status.COMMITTED);
  }

  private void evolvesAndOldRowsReadNull(boolean createWithMerge, boolean partitioned)
      throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaTableSchema first = partitioned ? v1().partitionedBy("part").build() : v1().build();
    appendEpoch(table, first, createWithMerge, 1, rows(0, 4, false));
    String mode =
        table.latestSnapshot().orElseThrow().getTableProperties().get("delta.columnMapping.mode");
    if (createWithMerge) {
      assertThat(mode).isEqualTo("name");
    } else {
      assertThat(mode).isNull();
    }

    // without mergeSchema: refused, and the message says how to allow it
    assertThatThrownBy(() -> table.ensureExists(v2(partitioned)))
        .isExactlyInstanceOf(DeltaSchemaMismatchException.class)
        .hasMessageContaining("[score]")
        .hasMessageContaining("mergeSchema=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_SCHEMA_MISMATCH");

    appendEpoch(table, v2(partitioned), true, 2, rows(4, 7, true));
    var snapshot = table.latestSnapshot().orElseThrow();
    assertThat(snapshot.getTableProperties()).containsEntry("delta.columnMapping.mode", "name");
    assertThat(snapshot.getSchema().fieldNames()).containsExactly("id", "name", "part", "score");
    assertThat(snapshot.getLatestTransactionVersion(table.engine(), "app")).contains(2L);
    List<String> expected = new ArrayList<>();
    for (Object[] r : rows(0, 4, false)) {
      expected.add(Arrays.toString(new Object[] {r[0], r[1], r[2], null}));
    }
    rows(4, 7, true).forEach(r -> expected.add(Arrays.toString(r)));
    assertThat(readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    // a third epoch with the evolved schema needs no further change
    long before = table.latestSnapshot().orElseThrow().getVersion();
    appendEpoch(table, v2(partitioned), true, 3, rows(7, 9, true));
    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isEqualTo(before + 1);
    assertThat(readAll(table)).hasSize(9);
  }

  @Test
  void aTableCreatedWithMergeSchemaUsesColumnMappingAndTakesNewColumns() throws IOException {
    evolvesAndOldRowsReadNull(true, false);
  }

  @Test
  void aPlainTableIsSwitchedToColumnMappingWhenAColumnIsAdded() throws IOException {
    evolvesAndOldRowsReadNull(false, false);
  }

  @Test
  void aPartitionedTableEvolves() throws IOException {
    evolvesAndOldRowsReadNull(true, true);
  }

  @Test
  void nonAdditiveChangesAreRefusedEvenWithMergeSchemaNamingRuleAndOption() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    table.ensureExists(v1().build(), true);
    DeltaTableSchema typeChange =
        DeltaTableSchema.builder()
            .column("id", ColumnType.STRING, false)
            .column("name", ColumnType.STRING)
            .column("part", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> table.ensureExists(typeChange, true))
        .isInstanceOf(DeltaSchemaEvolutionException.class)
        .hasMessageContaining("NO_TYPE_CHANGES")
        .hasMessageContaining("mergeSchema=true")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
    DeltaTableSchema dropped =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("part", ColumnType.STRING)
            .build();
    assertThatThrownBy(() -> new DeltaAppendCommit(table, dropped, "a", 3, true).open())
        .isInstanceOf(DeltaSchemaEvolutionException.class)
        .hasMessageContaining("NO_DROPPED_COLUMNS")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
    DeltaTableSchema notNullNew = v1().column("score", ColumnType.INT, false).build();
    assertThatThrownBy(() -> table.ensureExists(notNullNew, true))
        .hasMessageContaining("NEW_COLUMNS_NULLABLE")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
    assertThatThrownBy(() -> table.ensureExists(v1().partitionedBy("part").build(), true))
        .hasMessageContaining("SAME_PARTITIONING")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_UNSUPPORTED_SCHEMA_CHANGE");
    // nothing was changed by the refused attempts
    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isZero();
  }
}
