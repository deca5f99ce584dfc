package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.Scan;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of {@link Scan#getScanFiles}: a data file of a snapshot. Wraps Kernel's {@code
 * InternalScanFileUtils} (file status with the path resolved against the table root, partition
 * values, deletion vector), {@code actions.DeletionVectorDescriptor} (its cardinality) and {@code
 * actions.AddFile} / {@code actions.SingleAction} (a remove action for the file). Kernel's public
 * API only passes scan-file rows back to Kernel ({@link Scan#transformPhysicalData}); it has no
 * accessor for what the row holds, and no way to build a remove action, which output mode complete
 * commits for every file of the table.
 */
@Internal
public final class KernelScanFile {
  /** What {@link #forEach} does with each scan file. */
  @FunctionalInterface
  public interface Visitor {
    void visit(KernelScanFile file) throws IOException;
  }

  private final Row row;

  private KernelScanFile(Row row) {
    this.row = Objects.requireNonNull(row, "row");
  }

  /** The scan file of {@code row}, a row of {@link Scan#getScanFiles}. */
  public static KernelScanFile of(Row row) {
    return new KernelScanFile(row);
  }

  /**
   * Visits every scan file of {@code scan}, closing Kernel's iterators.
   *
   * @param includeStats whether the add actions carry their {@code stats} ({@link #stats()})
   * @throws IOException if the log cannot be read or {@code visitor} fails
   */
  public static void forEach(Engine engine, Scan scan, boolean includeStats, Visitor visitor)
      throws IOException {
    try (CloseableIterator<FilteredColumnarBatch> batches =
        scan.getScanFiles(engine, includeStats)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            visitor.visit(new KernelScanFile(rows.next()));
          }
        }
      }
    }
  }

  /** The Kernel row, for Kernel calls that take it ({@link Scan#transformPhysicalData}). */
  public Row row() {
    return row;
  }

  /** The file's add action. */
  public Row addAction() {
    return row.getStruct(row.getSchema().indexOf("add"));
  }

  /** The file's absolute path (resolved against the table root), size and modification time. */
  public FileStatus status() {
    return InternalScanFileUtils.getAddFileStatus(row);
  }

  /** Partition column name to its value's text form (values may be null). */
  public Map<String, String> partitionValues() {
    return InternalScanFileUtils.getPartitionValues(row);
  }

  /** Whether rows of the file are deleted by a deletion vector. */
  public boolean hasDeletionVector() {
    return InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row) != null;
  }

  /** The absolute path of the file's deletion vector, or empty (none, or inline). */
  public Optional<String> deletionVectorPath(String tableRoot) {
    DeletionVectorDescriptor dv = InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row);
    return dv != null && dv.isOnDisk()
        ? Optional.of(dv.getAbsolutePath(tableRoot))
        : Optional.empty();
  }

  /** The file's deletion vector, or null. */
  public DeltaDeletionVector deletionVector() {
    DeletionVectorDescriptor dv = InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row);
    return dv == null
        ? null
        : new DeltaDeletionVector(
            dv.getStorageType(),
            dv.getPathOrInlineDv(),
            dv.getOffset().orElse(-1),
            dv.getSizeInBytes(),
            dv.getCardinality());
  }

  /** The file's {@code baseRowId} (row tracking), if its add action has one. */
  public Optional<Long> baseRowId() {
    return InternalScanFileUtils.getBaseRowId(row);
  }

  /** The file's {@code defaultRowCommitVersion} (row tracking), if its add action has one. */
  public Optional<Long> defaultRowCommitVersion() {
    return InternalScanFileUtils.getDefaultRowCommitVersion(row);
  }

  /** The number of rows the file's deletion vector removes (0 without one). */
  public long deletedRows() {
    Row add = addAction();
    int ordinal = add.getSchema().indexOf("deletionVector");
    if (ordinal < 0 || add.isNullAt(ordinal)) {
      return 0;
    }
    DeletionVectorDescriptor dv = InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row);
    return dv == null ? 0 : dv.getCardinality();
  }

  /** The add action's {@code stats} JSON, or null (also when the scan did not include them). */
  public String stats() {
    Row add = addAction();
    int ordinal = add.getSchema().indexOf("stats");
    return ordinal < 0 || add.isNullAt(ordinal) ? null : add.getString(ordinal);
  }

  /**
   * A log action that removes the file (a {@code SingleAction} row with a {@code remove}), as
   * Kernel's own REPLACE TABLE builds it.
   *
   * @param dataChange the remove's {@code dataChange}
   * @param deletionTimestamp the remove's {@code deletionTimestamp} (epoch milliseconds)
   */
  public Row removeAction(boolean dataChange, long deletionTimestamp) {
    AddFile add = new AddFile(addAction());
    return SingleAction.createRemoveFileSingleAction(
        add.toRemoveFileRow(dataChange, Optional.of(deletionTimestamp)));
  }
}
