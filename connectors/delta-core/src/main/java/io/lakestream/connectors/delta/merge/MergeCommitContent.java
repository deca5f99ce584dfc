package io.lakestream.connectors.delta.merge;

import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import java.util.List;
import java.util.Map;

/**
 * Everything one MERGE version commits, before it knows its version: rendered as log lines for the
 * version it is written as ({@link #lines}), since row ids, {@code defaultRowCommitVersion} and the
 * in-commit timestamp depend on the version and on the versions before it.
 *
 * @param tableRoot the table root as Kernel names it
 * @param now the commit attempt's time (epoch milliseconds)
 * @param readVersion the version the batch was planned on
 * @param parameters {@code commitInfo.operationParameters}
 * @param metrics {@code commitInfo.operationMetrics}
 * @param appId the {@code txn} application id
 * @param epoch the {@code txn} version
 * @param removed the files removed
 * @param vectors with deletion vectors: per removed file its new vector (null: not added again);
 *     empty in copy-on-write
 * @param dataFiles the new data files
 * @param changeFiles the new change data files
 */
record MergeCommitContent(
    String tableRoot,
    long now,
    long readVersion,
    Map<String, String> parameters,
    Map<String, Long> metrics,
    String appId,
    long epoch,
    List<TargetFile> removed,
    List<DeltaDeletionVector> vectors,
    List<DeltaWrittenFile> dataFiles,
    List<DeltaWrittenFile> changeFiles) {

  /** The log lines of this commit as version {@code version} on a table as {@code base} says. */
  List<String> lines(long version, MergeTableFeatures base) {
    MergeCommitFile file = new MergeCommitFile(tableRoot);
    Long ict = base.inCommitTimestamps() ? Math.max(now, base.previousTimestamp() + 1) : null;
    file.commitInfo(now, ict, readVersion, parameters, metrics).txn(appId, epoch, now);
    for (int i = 0; i < removed.size(); i++) {
      file.remove(removed.get(i), now);
      if (!vectors.isEmpty() && vectors.get(i) != null) {
        file.addWithVector(removed.get(i), vectors.get(i));
      }
    }
    long next = base.rowIdHighWaterMark() + 1;
    for (DeltaWrittenFile data : dataFiles) {
      Long baseRowId = base.rowTracking() ? next : null;
      next += data.numRecords();
      file.add(data, base.physicalKeys(data.partitionValues()), baseRowId, version);
    }
    if (base.rowTracking() && next - 1 > base.rowIdHighWaterMark()) {
      file.rowIdHighWaterMark(next - 1);
    }
    changeFiles.forEach(cdc -> file.cdc(cdc, base.physicalKeys(cdc.partitionValues())));
    return file.lines();
  }
}
