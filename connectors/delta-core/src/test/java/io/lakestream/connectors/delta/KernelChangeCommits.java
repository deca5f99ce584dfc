package io.lakestream.connectors.delta;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterable;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Test helper: commits that change existing data, written with Delta Kernel as another engine
 * would: a DELETE of whole files (remove, dataChange=true) and a compaction (remove + add of the
 * same rows, dataChange=false). Builds the compaction's add actions with Kernel's internal {@code
 * AddFile}, which delta-core's main code never needs (see {@code delta.kernel}).
 */
public final class KernelChangeCommits {
  private KernelChangeCommits() {}

  /** Removes one data file of the latest version (dataChange=true); returns the new version. */
  public static long deleteOneFile(DeltaTable table) throws IOException {
    List<Row> removes = removes(table, true, 1);
    return commit(table, removes);
  }

  /**
   * Rewrites every data file of the latest version into new files holding the same rows, with
   * dataChange=false (what OPTIMIZE writes); returns the new version.
   */
  public static long compact(DeltaTable table, DeltaTableSchema schema) throws IOException {
    List<Row> actions = removes(table, false, Integer.MAX_VALUE);
    List<Object[]> rows = new DeltaTableReader(table).readLatest();
    String root = table.kernelTable().getPath(table.engine());
    for (DeltaWrittenFile f : new DeltaTableWriter(table, schema).write(rows)) {
      String relative =
          f.path().startsWith(root + "/") ? f.path().substring(root.length() + 1) : f.path();
      Row add =
          AddFile.createAddFileRow(
              schema.toStructType(),
              relative,
              VectorUtils.stringStringMapValue(f.partitionValues()),
              f.size(),
              f.modificationTime(),
              false,
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Optional.empty());
      actions.add(SingleAction.createAddFileSingleAction(add));
    }
    return commit(table, actions);
  }

  private static List<Row> removes(DeltaTable table, boolean dataChange, int max)
      throws IOException {
    Engine engine = table.engine();
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    List<Row> removes = new ArrayList<>();
    KernelScanFile.forEach(
        engine,
        snapshot.getScanBuilder().build(),
        false,
        file -> {
          if (removes.size() < max) {
            removes.add(file.removeAction(dataChange, System.currentTimeMillis()));
          }
        });
    return removes;
  }

  private static long commit(DeltaTable table, List<Row> actions) throws IOException {
    Engine engine = table.engine();
    Transaction txn =
        table
            .kernelTable()
            .createTransactionBuilder(engine, "test", Operation.MANUAL_UPDATE)
            .build(engine);
    return txn.commit(
            engine, CloseableIterable.inMemoryIterable(DeltaTableWriter.iterator(actions)))
        .getVersion();
  }
}
