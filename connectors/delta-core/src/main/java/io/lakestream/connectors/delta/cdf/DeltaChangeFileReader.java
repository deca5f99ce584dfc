package io.lakestream.connectors.delta.cdf;

import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaFileRows;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * Reads the change rows of single {@link DeltaChangeFile}s. A row is an {@code Object[]} with the
 * table's columns (in table order, values as {@link
 * io.lakestream.connectors.delta.DeltaTableReader} documents) followed by {@code _change_type}
 * (String), {@code _commit_version} (Long) and {@code _commit_timestamp} ({@link Instant}). Rows
 * come in file order, so a reader can resume after the first {@code n} rows of a file. Flink-free.
 * Columns are read by their physical names under column mapping; a change file's deletion and
 * selection vectors ({@link DeltaChangeFile#deletionVector()}, {@link
 * DeltaChangeFile#selectionVector()}) choose the rows read.
 */
@Internal
public final class DeltaChangeFileReader {
  /** The change type column of cdc files and change rows. */
  public static final String CHANGE_TYPE = "_change_type";

  /** The change rows' commit version column. */
  public static final String COMMIT_VERSION = "_commit_version";

  /** The change rows' commit time column. */
  public static final String COMMIT_TIMESTAMP = "_commit_timestamp";

  /** The columns change rows add after the table's columns. */
  public static final List<String> METADATA_COLUMNS =
      List.of(CHANGE_TYPE, COMMIT_VERSION, COMMIT_TIMESTAMP);

  private final DeltaTable table;
  private final int width;
  private final List<String> partitionColumns;
  private final List<String> partitionKeys; // as the log keys partition values (physical names)
  private final DeltaDataFileReader dataFiles;
  private final DeltaDataFileReader cdcFiles;
  private final DeletionVectorStore vectors;

  /**
   * A reader of a table whose column mapping mode its schema tells (see {@link
   * DeltaDataFileReader}).
   */
  public DeltaChangeFileReader(DeltaTable table, String schemaJson, List<String> partitionColumns) {
    this(table, schemaJson, partitionColumns, null);
  }

  /**
   * @param schemaJson the table schema ({@link StructType#toJson()})
   * @param partitionColumns the table's partition columns
   * @param columnMappingMode the table's {@code delta.columnMapping.mode}, or null to infer it
   * @throws DeltaTableException ({@code DELTA_UNSUPPORTED_FEATURE}) if a column has a type rows
   *     cannot carry (variant, geospatial)
   */
  public DeltaChangeFileReader(
      DeltaTable table,
      String schemaJson,
      List<String> partitionColumns,
      String columnMappingMode) {
    this.table = table;
    StructType schema = KernelSchemaJson.parse(schemaJson);
    this.width = schema.length();
    this.partitionColumns = List.copyOf(partitionColumns);
    this.partitionKeys =
        partitionColumns.stream()
            .map(c -> KernelColumnMapping.physicalName(schema.get(c)))
            .toList();
    this.vectors = new DeletionVectorStore(table);
    this.dataFiles = reader(table, schemaJson, partitionColumns, columnMappingMode);
    this.cdcFiles =
        reader(
            table,
            schema.add(CHANGE_TYPE, StringType.STRING).toJson(),
            partitionColumns,
            columnMappingMode);
  }

  private static DeltaDataFileReader reader(
      DeltaTable table, String schemaJson, List<String> partitionColumns, String mode) {
    List<String> all = KernelSchemaJson.parse(schemaJson).fieldNames();
    return mode == null
        ? new DeltaDataFileReader(table, schemaJson, partitionColumns)
        : new DeltaDataFileReader(table, schemaJson, partitionColumns, all, mode);
  }

  /** Opens {@code file}; the caller closes the returned rows. */
  public Rows open(DeltaChangeFile file) {
    for (int p = 0; p < partitionColumns.size(); p++) {
      String column = partitionColumns.get(p);
      if (!file.partitionValues().containsKey(column)
          && !file.partitionValues().containsKey(partitionKeys.get(p))) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_CORRUPT,
            "Change file "
                + file.path()
                + " (version "
                + file.version()
                + ") of the Delta table at "
                + table.path()
                + " has no value for partition column '"
                + column
                + "' in its log action (a remove action written without extended file"
                + " metadata), so its rows cannot be reconstructed");
      }
    }
    DeltaAddedFile data =
        new DeltaAddedFile(
            file.path(),
            file.version(),
            file.index(),
            false,
            file.partitionValues(),
            file.size(),
            -1);
    DeltaDataFileReader reader = file.kind() == DeltaChangeFile.Kind.CDC ? cdcFiles : dataFiles;
    return new Rows(file, reader.open(data, rowsKept(file)));
  }

  /** The rows of the file its deletion and selection vectors let through. */
  private LongPredicate rowsKept(DeltaChangeFile file) {
    LongPredicate keep = row -> true;
    if (file.deletionVector() != null && file.deletionVector().cardinality() > 0) {
      RowIndexBitmap hidden = vectors.load(file.deletionVector());
      keep = row -> !hidden.contains(row);
    }
    if (file.selectionVector() != null) {
      RowIndexBitmap selected = vectors.load(file.selectionVector());
      keep = keep.and(selected::contains);
    }
    return keep;
  }

  /** The change rows of one file, in file order. Not thread-safe. */
  public final class Rows implements DeltaFileRows {
    private final DeltaChangeFile file;
    private final DeltaDataFileReader.Rows rows;
    private final Long version;
    private final Instant timestamp;

    private Rows(DeltaChangeFile file, DeltaDataFileReader.Rows rows) {
      this.file = file;
      this.rows = rows;
      this.version = file.version();
      this.timestamp = Instant.ofEpochMilli(file.commitTimestamp());
    }

    /**
     * Whether another row follows (may read the next Parquet batch).
     *
     * @throws DeltaTableException if the file cannot be read
     */
    public boolean hasNext() {
      return rows.hasNext();
    }

    /**
     * The next change row.
     *
     * @throws DeltaTableException if the file cannot be read or a cdc row has no change type
     */
    public Object[] next() {
      Object[] data = rows.next();
      Object[] row = new Object[width + METADATA_COLUMNS.size()];
      System.arraycopy(data, 0, row, 0, width);
      String type = file.fixedChangeType();
      if (type == null) {
        type = (String) data[width];
        if (type == null) {
          throw new DeltaTableException(
              DeltaErrorClass.DELTA_TABLE_CORRUPT,
              "A row of change file " + file.path() + " has no " + CHANGE_TYPE + " value");
        }
      }
      row[width] = type;
      row[width + 1] = version;
      row[width + 2] = timestamp;
      return row;
    }

    @Override
    public void close() throws IOException {
      rows.close();
    }
  }
}
