package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.TableConfig;
import io.delta.kernel.internal.snapshot.MetadataCleanup;
import io.lakestream.api.annotation.Internal;
import java.io.IOException;

/**
 * Deletes a table's expired log files, as Delta does after a checkpoint: commit and checkpoint
 * files older than {@code delta.logRetentionDuration} (30 days unless set) that precede a
 * checkpoint which is itself that old, so every version from the oldest checkpoint kept still
 * reads. Skipped when {@code delta.enableExpiredLogCleanup} is false or the table has the {@code
 * checkpointProtection} writer feature. Wraps Kernel's {@code internal.snapshot.MetadataCleanup}:
 * Kernel runs it only from a checkpoint of a snapshot it loaded as the latest, which its
 * post-commit checkpoint hooks and {@code Table.checkpoint(engine, version)} never are.
 */
@Internal
public final class KernelLogCleanup {
  private KernelLogCleanup() {}

  /**
   * Deletes the expired log files of the table whose latest snapshot is {@code latest}.
   *
   * @return how many files it deleted
   * @throws IOException if the log cannot be listed or a file deleted
   */
  public static long deleteExpired(Engine engine, Snapshot latest) throws IOException {
    SnapshotImpl snapshot = (SnapshotImpl) latest;
    boolean enabled =
        (Boolean) TableConfig.EXPIRED_LOG_CLEANUP_ENABLED.fromMetadata(snapshot.getMetadata());
    boolean protectedLog =
        snapshot.getProtocol().getWriterFeatures().contains("checkpointProtection");
    if (!enabled || protectedLog) {
      return 0;
    }
    long retention = (Long) TableConfig.LOG_RETENTION.fromMetadata(snapshot.getMetadata());
    return MetadataCleanup.cleanupExpiredLogs(
        engine, System::currentTimeMillis, snapshot.getDataPath(), retention);
  }
}
