package io.lakestream.bench.merge;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a merged table against the reference model of a {@link MergeWorkload}, row by row,
 * streaming file by file (a 20M-row table never sits in memory): every row must be the model's row
 * for its key, no key may appear twice, and the row count must be the model's. Together that is
 * equality with the model. Reads through Delta Kernel, whichever engine wrote the table.
 */
public final class MergeTableCheck {
  private MergeTableCheck() {}

  /**
   * @return the number of data files in the latest version
   * @throws IllegalStateException naming the first difference, if the table differs from the model
   */
  public static int verify(MergeWorkload w, DeltaTable table) throws IOException {
    Map<Long, Integer> lastEpoch = w.lastEpochByKey();
    DeltaTableChanges changes =
        new DeltaTableChanges(
            table, table.latestSnapshot().orElseThrow().getSchema().toJson(), false, false);
    long version = changes.latestVersion();
    List<DeltaAddedFile> files = changes.snapshotFiles(version);
    DeltaDataFileReader reader =
        new DeltaDataFileReader(
            table, table.latestSnapshot().orElseThrow().getSchema().toJson(), List.of());
    BitSet seenBase = new BitSet();
    Set<Long> seenNew = new HashSet<>();
    long rows = 0;
    for (DeltaAddedFile file : files) {
      try (DeltaDataFileReader.Rows it = reader.open(file)) {
        while (it.hasNext()) {
          Object[] row = it.next();
          rows++;
          long key = (Long) row[0];
          boolean duplicate;
          if (key >= 0 && key < w.baseRows()) {
            duplicate = seenBase.get((int) key);
            seenBase.set((int) key);
          } else {
            duplicate = !seenNew.add(key);
          }
          if (duplicate) {
            throw differs(table, "key " + key + " appears twice");
          }
          Integer epoch = lastEpoch.get(key);
          Object[] expected;
          if (epoch != null) {
            expected = MergeWorkload.batchRow(epoch, key);
          } else if (key >= 0 && key < w.baseRows()) {
            expected = MergeWorkload.baseRow(key);
          } else {
            throw differs(table, "key " + key + " is in no batch and not in the initial table");
          }
          if (!sameRow(expected, row)) {
            throw differs(
                table,
                "key "
                    + key
                    + " holds "
                    + Arrays.toString(row)
                    + ", the model "
                    + Arrays.toString(expected));
          }
        }
      }
    }
    if (rows != w.finalRows()) {
      throw differs(table, "it holds " + rows + " rows, the model " + w.finalRows());
    }
    return files.size();
  }

  private static boolean sameRow(Object[] expected, Object[] actual) {
    if (actual.length != expected.length) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      Object e = expected[i];
      Object a = actual[i];
      if (e instanceof BigDecimal d) {
        if (!(a instanceof BigDecimal b) || d.compareTo(b) != 0) {
          return false;
        }
      } else if (!e.equals(a)) {
        return false;
      }
    }
    return true;
  }

  private static IllegalStateException differs(DeltaTable table, String what) {
    return new IllegalStateException(
        "The merged table at " + table.path() + " differs from the reference model: " + what);
  }
}
