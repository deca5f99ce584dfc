package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.StructField;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Column projection: the Parquet files are read with the chosen data columns only. */
class DeltaDataFileReaderTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("amount", ColumnType.decimal(10, 2))
          .column("day", ColumnType.DATE)
          .partitionedBy("day")
          .build();

  @TempDir Path dir;

  private DeltaTable table(String name, DeltaTableSchema schema) throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve(name).toUri().toString());
    new DeltaAppendCommit(table, schema, "app").open();
    return table;
  }

  private static List<DeltaWrittenFile> write(DeltaTable table, DeltaTableSchema schema) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = 0; id < 3; id++) {
      rows.add(new Object[] {id, "row-" + id, BigDecimal.valueOf(id, 2), LocalDate.of(2024, 5, 1)});
    }
    return new DeltaTableWriter(table, schema).write(rows);
  }

  private static DeltaAddedFile added(DeltaWrittenFile file) {
    return new DeltaAddedFile(
        file.path(), 1, 0, false, file.partitionValues(), file.size(), file.numRecords());
  }

  private static List<List<Object>> read(DeltaDataFileReader reader, DeltaAddedFile file)
      throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try (DeltaDataFileReader.Rows it = reader.open(file)) {
      while (it.hasNext()) {
        rows.add(Arrays.asList(it.next()));
      }
    }
    return rows;
  }

  @Test
  void rowsHoldTheChosenColumnsInTheirOrderAndOnlyTheirDataColumnsAreRead() throws IOException {
    DeltaTable table = table("t", SCHEMA);
    DeltaAddedFile file = added(write(table, SCHEMA).get(0));
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();

    DeltaDataFileReader projected =
        new DeltaDataFileReader(table, schema, List.of("day"), List.of("day", "id"));
    assertThat(projected.readSchema().fieldNames()).containsExactly("id");
    assertThat(read(projected, file))
        .containsExactly(
            List.of(LocalDate.of(2024, 5, 1), 0L),
            List.of(LocalDate.of(2024, 5, 1), 1L),
            List.of(LocalDate.of(2024, 5, 1), 2L));

    DeltaDataFileReader partitionOnly =
        new DeltaDataFileReader(table, schema, List.of("day"), List.of("day"));
    assertThat(partitionOnly.readSchema().fields())
        .containsExactly(StructField.DEFAULT_ROW_INDEX_COLUMN);
    assertThat(read(partitionOnly, file))
        .hasSize(3)
        .containsOnly(List.of(LocalDate.of(2024, 5, 1)));

    assertThat(new DeltaDataFileReader(table, schema, List.of("day")).readSchema().fieldNames())
        .containsExactly("id", "label", "amount");
    assertThatThrownBy(
            () -> new DeltaDataFileReader(table, schema, List.of("day"), List.of("nope")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nope'");
  }

  /**
   * A table whose log declares {@code label} a long over a file that stores it as a string: reading
   * {@code label} fails, a reader that does not choose it never decodes it.
   */
  @Test
  void aColumnThatIsNotChosenIsNotDecoded() throws IOException {
    DeltaWrittenFile written = write(table("strings", SCHEMA), SCHEMA).get(0);
    DeltaTableSchema longLabel =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("label", ColumnType.LONG)
            .column("amount", ColumnType.decimal(10, 2))
            .column("day", ColumnType.DATE)
            .partitionedBy("day")
            .build();
    DeltaTable table = table("longs", longLabel);
    Path source = Paths.get(java.net.URI.create(written.path()));
    Path copy = dir.resolve("longs").resolve(source.getFileName().toString());
    Files.copy(source, copy);
    DeltaAddedFile file =
        added(
            new DeltaWrittenFile(
                copy.toUri().toString(),
                written.size(),
                written.modificationTime(),
                Map.of("day", "2024-05-01"),
                "",
                written.numRecords()));
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();

    // (Kernel's Parquet reader fails to decode the string as a long)
    assertThatThrownBy(() -> read(new DeltaDataFileReader(table, schema, List.of("day")), file))
        .hasMessageContaining("Can not read value");
    assertThat(
            read(
                new DeltaDataFileReader(table, schema, List.of("day"), List.of("id", "amount")),
                file))
        .containsExactly(
            List.of(0L, new BigDecimal("0.00")),
            List.of(1L, new BigDecimal("0.01")),
            List.of(2L, new BigDecimal("0.02")));
  }
}
