package io.lakestream.connectors.delta.maintenance;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import java.io.IOException;

/** The data files of a table's latest version, for the maintenance tests. */
final class DeltaMaintenanceFiles {
  private DeltaMaintenanceFiles() {}

  static long count(DeltaTable table) throws IOException {
    long[] count = {0};
    KernelScanFile.forEach(
        table.engine(),
        table.latestSnapshot().orElseThrow().getScanBuilder().build(),
        false,
        file -> count[0]++);
    return count[0];
  }
}
