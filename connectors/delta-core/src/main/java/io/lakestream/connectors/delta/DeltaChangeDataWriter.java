package io.lakestream.connectors.delta;

import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes change data files ({@code cdc} files of Delta's change data feed) of a table WITHOUT
 * committing them: Parquet files under {@code <table>/_change_data/} holding the data columns (the
 * partition columns are left out, their values travel in the cdc action's {@code partitionValues},
 * as for data files) plus {@value #CHANGE_TYPE_COLUMN}. Rows are {@code Object[]} in declared
 * column order (partition columns included), with the Java values {@link ColumnType} lists.
 *
 * <p>Each distinct combination of partition values gets its own file(s). Not thread-safe. On a
 * table with column mapping the file columns carry the columns' physical names, as data files do
 * (the written files' partition values stay keyed by column name; the commit keys them).
 *
 * <p>The files are written by lakestream's own Parquet writer, as data files are: the Parquet
 * types, settings and file size Kernel's writer would use, without building dictionaries for
 * columns whose values barely repeat. A table with a nested column has its change data written by
 * Kernel's Parquet writer instead.
 */
@Internal
public final class DeltaChangeDataWriter {
  /** The column holding the change type of each row of a change data file. */
  public static final String CHANGE_TYPE_COLUMN = "_change_type";

  /** The directory (below the table root) that holds the change data files. */
  public static final String CHANGE_DATA_DIR = "_change_data";

  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final List<Column> fileColumns;
  private final int[] dataIndexes;
  private final int[] partitionIndexes;
  private final boolean nested; // a nested column: Kernel's Parquet writer writes the files
  private DeltaParquetFileWriter parquetWriter;

  /** A writer for {@code table} declared as {@code schema}; does no I/O until used. */
  public DeltaChangeDataWriter(DeltaTable table, DeltaTableSchema schema) {
    this(table, schema, Map.of());
  }

  /**
   * A writer for a table with column mapping: {@code physicalNames} maps a column's name to the
   * name its values are written under (missing: its own name).
   */
  public DeltaChangeDataWriter(
      DeltaTable table, DeltaTableSchema schema, Map<String, String> physicalNames) {
    this.table = table;
    this.schema = schema;
    List<Column> columns = new ArrayList<>();
    List<Integer> data = new ArrayList<>();
    for (int c = 0; c < schema.columns().size(); c++) {
      Column column = schema.columns().get(c);
      if (!schema.partitionColumns().contains(column.name())) {
        columns.add(
            new Column(
                physicalNames.getOrDefault(column.name(), column.name()),
                column.type(),
                column.nullable()));
        data.add(c);
      }
    }
    columns.add(new Column(CHANGE_TYPE_COLUMN, ColumnType.STRING, false));
    this.fileColumns = List.copyOf(columns);
    this.dataIndexes = data.stream().mapToInt(Integer::intValue).toArray();
    this.partitionIndexes = schema.partitionColumns().stream().mapToInt(schema::indexOf).toArray();
    this.nested = fileColumns.stream().anyMatch(c -> c.type().kind().isNested());
  }

  /**
   * Writes {@code rows}, the i-th with change type {@code changeTypes.get(i)} ({@code insert},
   * {@code update_preimage}, {@code update_postimage} or {@code delete}).
   *
   * @return the written files (absolute paths, with the partition values of their rows), not yet
   *     referenced by any commit; empty for no rows
   * @throws LakestreamException ({@code DELTA_INVALID_ROW}) if a row does not fit the declaration
   *     (names the column)
   * @throws DeltaTableException if a file cannot be written
   */
  public List<DeltaWrittenFile> write(List<Object[]> rows, List<String> changeTypes) {
    if (rows.size() != changeTypes.size()) {
      throw new IllegalArgumentException(
          rows.size() + " rows but " + changeTypes.size() + " change types");
    }
    Map<Map<String, String>, DeltaColumnBuffer> groups = new LinkedHashMap<>();
    for (int r = 0; r < rows.size(); r++) {
      Object[] row = rows.get(r);
      if (row.length < schema.columns().size()) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_ROW,
            "Change row " + r + " has " + row.length + " values, the table has " + schema);
      }
      Map<String, String> partition = new LinkedHashMap<>();
      for (int p : partitionIndexes) {
        Column column = schema.columns().get(p);
        partition.put(
            column.name(),
            DeltaValues.toPartitionText(column.type(), DeltaValues.toKernelValue(column, row[p])));
      }
      Object[] fileRow = new Object[fileColumns.size()];
      for (int i = 0; i < dataIndexes.length; i++) {
        fileRow[i] = row[dataIndexes[i]];
      }
      fileRow[dataIndexes.length] = changeTypes.get(r);
      groups.computeIfAbsent(partition, k -> new DeltaColumnBuffer(fileColumns)).append(fileRow);
    }
    StructType fileSchema = DeltaTypes.toKernel(RowSchema.of(fileColumns));
    String directory = table.path().replaceAll("/+$", "") + "/" + CHANGE_DATA_DIR;
    List<DeltaWrittenFile> written = new ArrayList<>();
    for (Map.Entry<Map<String, String>, DeltaColumnBuffer> group : groups.entrySet()) {
      try {
        for (DataFileStatus file : writeFiles(directory, fileSchema, group.getValue())) {
          written.add(
              new DeltaWrittenFile(
                  file.getPath(),
                  file.getSize(),
                  file.getModificationTime(),
                  group.getKey(),
                  "",
                  group.getValue().size()));
        }
      } catch (IOException | UncheckedIOException | KernelException e) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
            "Cannot write change data files of " + table.path() + ": " + e.getMessage(),
            e);
      }
    }
    return written;
  }

  /** Writes one partition's change rows as files under {@code directory}, without statistics. */
  private List<DataFileStatus> writeFiles(
      String directory, StructType fileSchema, DeltaColumnBuffer rows) throws IOException {
    if (!nested) {
      if (parquetWriter == null) {
        DeltaTableSchema fileTable =
            DeltaTableSchema.builder().columns(RowSchema.of(fileColumns)).build();
        parquetWriter =
            new DeltaParquetFileWriter(table.hadoopConfiguration(), fileTable, fileSchema);
      }
      return parquetWriter.write(directory, rows, List.of());
    }
    FilteredColumnarBatch batch =
        new FilteredColumnarBatch(rows.toBatch(fileSchema), Optional.empty());
    List<DataFileStatus> files = new ArrayList<>();
    try (CloseableIterator<DataFileStatus> it =
        table
            .engine()
            .getParquetHandler()
            .writeParquetFiles(directory, DeltaTableWriter.singleton(batch), List.of())) {
      it.forEachRemaining(files::add);
    }
    return files;
  }
}
