package io.lakestream.connectors.delta.maintenance;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import java.io.Serializable;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Databricks' auto-compaction after a write: the partitions the write added files to are compacted
 * ({@link DeltaOptimize}, recorded with {@code auto = true}) once one of them holds {@value
 * #MIN_NUM_FILES} or more files below the target size (the table's {@code delta.targetFileSize},
 * else 128 MiB), as Databricks' {@code spark.databricks.delta.autoCompact.minNumFiles} defaults. On
 * when the writer asks for it, or for a table with {@code delta.autoOptimize.autoCompact} = {@code
 * true} or {@code auto} (as Databricks and Spark set it).
 *
 * <p>It never fails the write it follows: a compaction that fails, or loses to another writer's
 * commit, is logged and left for a later write.
 */
@Internal
public final class PartitionCompaction implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCompaction.class);

  /** Small files in a partition before it is compacted (Databricks' default). */
  public static final int MIN_NUM_FILES = 50;

  /** The table property that turns it on. */
  public static final String PROPERTY = "delta.autoOptimize.autoCompact";

  private final DeltaTable table;
  private final long targetFileSize;

  private PartitionCompaction(DeltaTable table, long targetFileSize) {
    this.table = table;
    this.targetFileSize = targetFileSize;
  }

  /**
   * The compaction of {@code table}, if {@code requested} or its {@code properties} turn it on.
   * Quiet (a MERGE asks for it every epoch); the sink logs once that it is on.
   *
   * @param properties the table's properties, as a snapshot of it has them
   */
  public static Optional<PartitionCompaction> of(
      DeltaTable table, Map<String, String> properties, boolean requested) {
    String mode = properties.getOrDefault(PROPERTY, "false").trim().toLowerCase(Locale.ROOT);
    if (!requested && !mode.equals("true") && !mode.equals("auto")) {
      return Optional.empty();
    }
    long target =
        TablePropertyText.bytes(properties.get("delta.targetFileSize"))
            .orElse(DeltaOptimize.DEFAULT_TARGET_FILE_SIZE);
    return Optional.of(new PartitionCompaction(table, target));
  }

  /** Compacts the partitions of {@code written} if small files piled up there; never throws. */
  public void after(String write, Collection<DeltaWrittenFile> written) {
    if (written.isEmpty()) {
      return;
    }
    Set<Map<String, String>> partitions =
        written.stream().map(DeltaWrittenFile::partitionValues).collect(Collectors.toSet());
    try {
      DeltaOptimizeResult result =
          DeltaOptimize.forTable(table)
              .onlyPartitions(partitions)
              .minFilesPerPartition(MIN_NUM_FILES)
              .targetFileSize(targetFileSize)
              .auto(true)
              .build()
              .run();
      if (result.status() != DeltaOptimizeResult.Status.NOTHING_TO_COMPACT) {
        LOG.info("{}: auto-compaction after {}: {}", table.path(), write, result);
      }
    } catch (Exception e) {
      LOG.warn(
          "{}: auto-compaction after {} failed; the write stands and a later one compacts: {}",
          table.path(),
          write,
          e.toString());
    }
  }
}
