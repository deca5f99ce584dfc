package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with column mapping (lakestream's own mergeSchema turns it on): the streaming file reader
 * reads data files by physical names and partition values by physical keys, and follows a rename.
 */
class ColumnMappingReadTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DeltaTableSchema V1 =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("day", ColumnType.DATE)
          .partitionedBy("day")
          .build();
  private static final DeltaTableSchema V2 =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("day", ColumnType.DATE)
          .column("amount", ColumnType.DOUBLE)
          .partitionedBy("day")
          .build();

  @TempDir Path dir;

  private DeltaTable evolvedTable() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaAppendCommit first = new DeltaAppendCommit(table, V1, "app", 10, true);
    first.open();
    first.commit(1, new DeltaTableWriter(table, V1, true).write(rows(0, 3, false)));
    DeltaAppendCommit second = new DeltaAppendCommit(table, V2, "app", 10, true);
    second.open();
    second.commit(2, new DeltaTableWriter(table, V2, true).write(rows(3, 5, true)));
    return table;
  }

  private static List<Object[]> rows(long from, long to, boolean wide) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      LocalDate day = LocalDate.of(2024, 5, 1 + (int) (id % 2));
      rows.add(
          wide ? new Object[] {id, "l" + id, day, id + 0.5} : new Object[] {id, "l" + id, day});
    }
    return rows;
  }

  private static List<List<Object>> streamed(DeltaTable table) throws IOException {
    var snapshot = table.latestSnapshot().orElseThrow();
    String schema = snapshot.getSchema().toJson();
    DeltaDataFileReader reader =
        new DeltaDataFileReader(table, schema, snapshot.getPartitionColumnNames());
    List<List<Object>> out = new ArrayList<>();
    for (DeltaAddedFile file :
        new DeltaTableChanges(table, schema, false, false).snapshotFiles(snapshot.getVersion())) {
      try (DeltaDataFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          out.add(Arrays.asList(rows.next()));
        }
      }
    }
    return out;
  }

  private static List<List<Object>> kernel(DeltaTable table) {
    return new DeltaTableReader(table).readLatest().stream().map(Arrays::asList).toList();
  }

  @Test
  void theEvolvedTableStreamsAsKernelReadsIt() throws IOException {
    DeltaTable table = evolvedTable();
    String mode =
        table.latestSnapshot().orElseThrow().getTableProperties().get("delta.columnMapping.mode");
    assertThat(mode).isEqualTo("name");

    List<List<Object>> streamed = streamed(table);
    assertThat(streamed).hasSize(5).containsExactlyInAnyOrderElementsOf(kernel(table));
    assertThat(streamed)
        .contains(Arrays.asList(0L, "l0", LocalDate.of(2024, 5, 1), null))
        .contains(Arrays.asList(3L, "l3", LocalDate.of(2024, 5, 2), 3.5));
  }

  @Test
  void aRenamedColumnReadsItsOldFilesUnderTheNewName() throws IOException {
    DeltaTable table = evolvedTable();
    long version = renameLabel(table);
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    assertThat(table.latestSnapshot().orElseThrow().getVersion()).isEqualTo(version);

    assertThat(new DeltaTableReader(table).columnNames())
        .containsExactly("id", "title", "day", "amount");
    assertThat(streamed(table))
        .contains(Arrays.asList(1L, "l1", LocalDate.of(2024, 5, 2), null))
        .containsExactlyInAnyOrderElementsOf(kernel(table));
    assertThat(schema).contains("\"title\"");
  }

  /** A metaData commit renaming {@code label} to {@code title}, as ALTER TABLE RENAME COLUMN. */
  static long renameLabel(DeltaTable table) throws IOException {
    var snapshot = table.latestSnapshot().orElseThrow();
    List<StructField> fields = new ArrayList<>();
    for (StructField f : snapshot.getSchema().fields()) {
      fields.add(
          f.getName().equals("label")
              ? new StructField("title", f.getDataType(), f.isNullable(), f.getMetadata())
              : f);
    }
    Path log = Path.of(java.net.URI.create(table.path())).resolve("_delta_log");
    ObjectNode metaData = null;
    for (long v = 0; v <= snapshot.getVersion(); v++) {
      for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", v)))) {
        JsonNode action = JSON.readTree(line);
        if (action.has("metaData")) {
          metaData = (ObjectNode) action.get("metaData");
        }
      }
    }
    metaData.put("schemaString", new StructType(fields).toJson());
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set("metaData", metaData);
    long version = snapshot.getVersion() + 1;
    Files.writeString(
        log.resolve(String.format("%020d.json", version)), JSON.writeValueAsString(wrapper) + "\n");
    return version;
  }
}
