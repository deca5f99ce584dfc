package io.lakestream.connectors.delta.maintenance;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Databricks' auto-compaction in a Delta sink's committer: after an epoch's commit, the partitions
 * the epoch wrote are compacted ({@link DeltaOptimize}, recorded with {@code auto = true}) once one
 * of them holds {@value #MIN_NUM_FILES} or more files below the target size (the table's {@code
 * delta.targetFileSize}, else 128 MiB), as Databricks' {@code
 * spark.databricks.delta.autoCompact.minNumFiles} defaults. On when the sink asks for it (its
 * option {@code autoCompact}), or for a table with {@code delta.autoOptimize.autoCompact} = {@code
 * true} or {@code auto} (as Databricks and Spark set it; Delta Kernel does not let a writer set
 * that property) when the query starts.
 *
 * <p>The epoch's commit comes first and always stands: a compaction that fails, or loses to another
 * writer's commit, is logged and left for a later epoch; it never fails the query. A replayed epoch
 * (already committed) compacts nothing.
 */
@Internal
public final class AutoCompaction implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(AutoCompaction.class);

  /** Small files in a partition before it is compacted (Databricks' default). */
  public static final int MIN_NUM_FILES = 50;

  /** The table property that turns it on. */
  public static final String PROPERTY = "delta.autoOptimize.autoCompact";

  private final EpochCommitAction<DeltaWrittenFile> commit;
  private final DeltaTable table;
  private final long targetFileSize;
  private final int minNumFiles;

  AutoCompaction(
      EpochCommitAction<DeltaWrittenFile> commit,
      DeltaTable table,
      long targetFileSize,
      int minNumFiles) {
    this.commit = commit;
    this.table = table;
    this.targetFileSize = targetFileSize;
    this.minNumFiles = minNumFiles;
  }

  /**
   * {@code commit}, compacting after each epoch if {@code requested} or the table's properties (as
   * the query starts) turn auto-compaction on; else {@code commit} itself.
   */
  public static EpochCommitAction<DeltaWrittenFile> ifEnabled(
      EpochCommitAction<DeltaWrittenFile> commit, DeltaTable table, boolean requested) {
    Map<String, String> properties =
        table.latestSnapshot().map(s -> s.getTableProperties()).orElse(Map.of());
    String mode = properties.getOrDefault(PROPERTY, "false").trim().toLowerCase(Locale.ROOT);
    if (!requested && !mode.equals("true") && !mode.equals("auto")) {
      return commit;
    }
    long target =
        TablePropertyText.bytes(properties.get("delta.targetFileSize"))
            .orElse(DeltaOptimize.DEFAULT_TARGET_FILE_SIZE);
    LOG.info("{}: auto-compaction on (option {}, {}={})", table.path(), requested, PROPERTY, mode);
    return new AutoCompaction(commit, table, target, MIN_NUM_FILES);
  }

  @Override
  public void open() throws IOException {
    commit.open();
  }

  @Override
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> results) throws IOException {
    EpochCommitOutcome outcome = commit.commit(epoch, results);
    if (outcome.status() == EpochCommitOutcome.Status.COMMITTED && !results.isEmpty()) {
      compact(epoch, results);
    }
    return outcome;
  }

  private void compact(long epoch, List<DeltaWrittenFile> written) {
    Set<Map<String, String>> partitions =
        written.stream().map(DeltaWrittenFile::partitionValues).collect(Collectors.toSet());
    try {
      DeltaOptimizeResult result =
          DeltaOptimize.forTable(table)
              .onlyPartitions(partitions)
              .minFilesPerPartition(minNumFiles)
              .targetFileSize(targetFileSize)
              .auto(true)
              .build()
              .run();
      if (result.status() != DeltaOptimizeResult.Status.NOTHING_TO_COMPACT) {
        LOG.info("{}: auto-compaction after epoch {}: {}", table.path(), epoch, result);
      }
    } catch (Exception e) {
      LOG.warn(
          "{}: auto-compaction after epoch {} failed; the epoch's commit stands and a later"
              + " epoch compacts: {}",
          table.path(),
          epoch,
          e.toString());
    }
  }

  @Override
  public void close() throws IOException {
    commit.close();
  }
}
