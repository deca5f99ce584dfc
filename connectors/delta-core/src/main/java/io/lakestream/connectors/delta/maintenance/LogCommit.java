package io.lakestream.connectors.delta.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.storage.LogStore;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.kernel.KernelLogStores;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a version's action lines as the next version of a table's log, put-if-absent through the
 * log store Kernel's engine uses (a hard link on local disks, a conditional PUT on S3). When
 * another writer took that version, its actions are judged: a conflict ends the attempt (the other
 * commit stands), else the lines go to the next version. After a commit, a log checkpoint is
 * written every {@code delta.checkpointInterval} versions (which also lets Kernel remove log files
 * older than {@code delta.logRetentionDuration}).
 *
 * <p>On a table with in-commit timestamps ({@code delta.enableInCommitTimestamps=true}) every
 * commit must carry one, later than its predecessor's: the lines are built per attempt with {@code
 * max(now, previous + 1)}, where previous is the read version's timestamp or the winner's.
 */
final class LogCommit {
  private static final Logger LOG = LoggerFactory.getLogger(LogCommit.class);
  static final int MAX_ATTEMPTS = 10;

  private final DeltaTable table;

  LogCommit(DeltaTable table) {
    this.table = table;
  }

  /**
   * Commits the lines {@code linesAt} builds after the version {@code read}.
   *
   * @param linesAt the action lines of a version given its number and in-commit timestamp (null for
   *     a table without them)
   * @param conflict the reason a winning version's lines conflict with this commit, or empty
   * @return the committed version, or empty when a conflicting version won (or every attempt lost)
   * @throws IOException if the log cannot be written or read
   */
  Optional<Long> commit(
      Snapshot read,
      BiFunction<Long, Long, List<String>> linesAt,
      Function<List<String>, Optional<String>> conflict)
      throws IOException {
    Configuration conf = table.hadoopConfiguration();
    Path root = new Path(Table.forPath(table.engine(), table.path()).getPath(table.engine()));
    LogStore logStore = KernelLogStores.forScheme(conf, root.toUri().getScheme());
    boolean timestamps = hasInCommitTimestamps(read);
    long previous = timestamps ? read.getTimestamp(table.engine()) : 0;
    long version = read.getVersion() + 1;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++, version++) {
      Path file = new Path(new Path(root, "_delta_log"), String.format("%020d.json", version));
      Long ict = timestamps ? Math.max(System.currentTimeMillis(), previous + 1) : null;
      try {
        logStore.write(file, linesAt.apply(version, ict).iterator(), false, conf);
        checkpointIfDue(version);
        return Optional.of(version);
      } catch (FileAlreadyExistsException lost) {
        List<String> winner = read(logStore, file, conf);
        Optional<String> reason = conflict.apply(winner);
        if (reason.isPresent()) {
          LOG.info("{}: version {} won over this commit: {}", table.path(), version, reason.get());
          return Optional.empty();
        }
        previous = Math.max(previous, inCommitTimestamp(winner));
      }
    }
    return Optional.empty();
  }

  private static boolean hasInCommitTimestamps(Snapshot snapshot) {
    String enabled = snapshot.getTableProperties().get("delta.enableInCommitTimestamps");
    return enabled != null && enabled.trim().equalsIgnoreCase("true");
  }

  /** The winner's {@code commitInfo.inCommitTimestamp}, or 0. */
  private static long inCommitTimestamp(List<String> lines) throws IOException {
    for (String line : lines) {
      JsonNode ict = MaintenanceCommitFile.JSON.readTree(line).path("commitInfo");
      if (ict.has("inCommitTimestamp")) {
        return ict.path("inCommitTimestamp").asLong();
      }
    }
    return 0;
  }

  private static List<String> read(LogStore logStore, Path file, Configuration conf)
      throws IOException {
    List<String> lines = new ArrayList<>();
    try (io.delta.storage.CloseableIterator<String> it = logStore.read(file, conf)) {
      it.forEachRemaining(lines::add);
    }
    return lines;
  }

  /** A checkpoint every {@code delta.checkpointInterval} (default 10) versions; failures logged. */
  private void checkpointIfDue(long version) {
    try {
      String interval =
          table
              .latestSnapshot()
              .orElseThrow()
              .getTableProperties()
              .getOrDefault("delta.checkpointInterval", "10")
              .trim();
      int every = Integer.parseInt(interval);
      if (every > 0 && version % every == 0) {
        Table.forPath(table.engine(), table.path()).checkpoint(table.engine(), version);
        table.deleteExpiredLogFiles();
      }
    } catch (Exception e) {
      LOG.warn(
          "{}: checkpoint after version {} failed (the commit stands): {}",
          table.path(),
          version,
          e.toString());
    }
  }
}
