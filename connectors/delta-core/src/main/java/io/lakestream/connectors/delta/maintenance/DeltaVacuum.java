package io.lakestream.connectors.delta.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.HiddenNames;
import io.lakestream.connectors.delta.kernel.KernelDeletionVectors;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's {@code VACUUM}: deletes the files under a table's directory that no version within the
 * retention needs and that are older than it: files removed from the table longer ago than the
 * retention, and files no version ever referenced (an epoch that failed before its commit). A file
 * stays if the latest version holds it, a version's {@code remove} of it is younger than the
 * retention, it is a change data file of a version still in the log, or it is a deletion vector of
 * such files; every file also stays until it is older than the retention, so a commit in progress
 * never loses its files.
 *
 * <p>It never looks into directories whose names start with {@code _} or {@code .} (the log,
 * checkpoint locations under {@code _checkpoints}, staging areas) except {@code _change_data} and
 * partition directories of columns so named. A retention below the table's {@code
 * delta.deletedFileRetentionDuration} (7 days unless set) is refused unless forced, as Delta
 * refuses it: readers of older versions and writers still committing would lose files. Each run
 * that deletes records a {@code VACUUM START} and a {@code VACUUM END} commit, with Spark's
 * parameters and metrics; a dry run only lists.
 *
 * <p>Assumes {@code delta.logRetentionDuration} is at least the retention (Delta's defaults: 30
 * days against 7): removes are read from the log's commit files.
 */
@PublicEvolving
public final class DeltaVacuum {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaVacuum.class);

  /** The property of a table's deleted-file retention. */
  public static final String RETENTION_PROPERTY = "delta.deletedFileRetentionDuration";

  /** Delta's default retention: 7 days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  private final DeltaTable table;
  private final Duration retain;
  private final boolean dryRun;
  private final boolean force;

  private DeltaVacuum(DeltaTable table, Duration retain, boolean dryRun, boolean force) {
    this.table = table;
    this.retain = retain;
    this.dryRun = dryRun;
    this.force = force;
  }

  /**
   * A VACUUM of {@code table}.
   *
   * @param retain the retention, or null for the table's
   * @param force allow a retention below the table's
   */
  public static DeltaVacuum of(DeltaTable table, Duration retain, boolean dryRun, boolean force) {
    return new DeltaVacuum(Objects.requireNonNull(table, "table"), retain, dryRun, force);
  }

  /**
   * Lists, and unless a dry run deletes, the files no version within the retention needs.
   *
   * @throws LakestreamException ({@code DELTA_INVALID_MAINTENANCE}) for a retention below the
   *     table's without force
   * @throws DeltaTableException if the table is missing
   * @throws IOException if the table's directory or log cannot be read, or a file not deleted
   */
  public DeltaVacuumResult run() throws IOException {
    Snapshot snapshot =
        table
            .latestSnapshot()
            .orElseThrow(
                () ->
                    new DeltaTableException(
                        DeltaErrorClass.DELTA_TABLE_NOT_FOUND,
                        "No Delta table at " + table.path()));
    Duration tableRetention = tableRetention(snapshot);
    Duration retention = retain != null ? retain : tableRetention;
    checkRetention(retention, tableRetention);
    long now = System.currentTimeMillis();
    long cutoff = now - retention.toMillis();
    String root = snapshot.getPath();
    FileSystem fs = new Path(root).getFileSystem(table.hadoopConfiguration());
    Set<String> needed = needed(snapshot, root, cutoff, fs);
    Map<Path, Long> expired = new LinkedHashMap<>();
    collect(fs, new Path(root), snapshot.getPartitionColumnNames(), needed, cutoff, expired);
    long bytes = expired.values().stream().mapToLong(Long::longValue).sum();
    List<String> files = expired.keySet().stream().map(Path::toString).toList();
    if (!dryRun && !expired.isEmpty()) {
      delete(fs, expired, retention, tableRetention, bytes);
    }
    return new DeltaVacuumResult(dryRun, files, bytes, retention.toMillis());
  }

  private Duration tableRetention(Snapshot snapshot) {
    String text = snapshot.getTableProperties().get(RETENTION_PROPERTY);
    return text == null
        ? DEFAULT_RETENTION
        : TablePropertyText.parse(text).orElse(DEFAULT_RETENTION);
  }

  private void checkRetention(Duration retention, Duration tableRetention) {
    if (retention.isNegative()) {
      throw invalid("VACUUM retention " + retention + " is negative");
    }
    if (retention.compareTo(tableRetention) < 0 && !force) {
      throw invalid(
          "VACUUM of "
              + table.path()
              + " with a retention of "
              + retention.toHours()
              + "h is below the table's "
              + RETENTION_PROPERTY
              + " ("
              + tableRetention.toHours()
              + "h): queries reading older versions, and writers committing, would lose files."
              + " Use a retention of at least "
              + tableRetention.toHours()
              + "h, or force it (--force; Spark's"
              + " spark.databricks.delta.retentionDurationCheck.enabled=false) if nothing reads"
              + " older versions.");
    }
  }

  /** The paths (qualified) of every file a version within the retention needs. */
  private Set<String> needed(Snapshot snapshot, String root, long cutoff, FileSystem fs)
      throws IOException {
    Set<String> needed = new HashSet<>();
    KernelScanFile.forEach(
        table.engine(),
        snapshot.getScanBuilder().build(),
        false,
        file -> {
          needed.add(qualified(fs, file.status().getPath()));
          file.deletionVectorPath(root).ifPresent(dv -> needed.add(qualified(fs, dv)));
        });
    KernelTablePath tablePath = KernelTablePath.of(root);
    for (FileStatus commit : fs.listStatus(new Path(root, "_delta_log"), VacuumListing::isCommit)) {
      for (JsonNode action : VacuumListing.actions(fs, commit.getPath())) {
        neededBy(action, cutoff, tablePath, root, fs, needed);
      }
    }
    return needed;
  }

  /** Adds what one log action needs: a young remove's file, a young version's change files. */
  private static void neededBy(
      JsonNode action,
      long cutoff,
      KernelTablePath tablePath,
      String root,
      FileSystem fs,
      Set<String> needed) {
    JsonNode remove = action.path("remove");
    if (remove.isObject() && remove.path("deletionTimestamp").asLong(Long.MAX_VALUE) >= cutoff) {
      needed.add(qualified(fs, tablePath.resolve(remove.path("path").asText())));
      deletionVectorOf(remove, root).ifPresent(dv -> needed.add(qualified(fs, dv)));
    }
    JsonNode cdc = action.path("cdc");
    if (cdc.isObject()) {
      needed.add(qualified(fs, tablePath.resolve(cdc.path("path").asText())));
    }
  }

  private static Optional<String> deletionVectorOf(JsonNode fileAction, String root) {
    JsonNode dv = fileAction.path("deletionVector");
    if (!dv.isObject()) {
      return Optional.empty();
    }
    return KernelDeletionVectors.filePath(
        dv.path("storageType").asText(),
        dv.path("pathOrInlineDv").asText(),
        dv.has("offset") ? dv.path("offset").asInt() : null,
        dv.path("sizeInBytes").asInt(),
        dv.path("cardinality").asLong(),
        root);
  }

  /** Adds the files below {@code dir} that are not needed and older than the cutoff. */
  private static void collect(
      FileSystem fs,
      Path dir,
      List<String> partitionColumns,
      Set<String> needed,
      long cutoff,
      Map<Path, Long> expired)
      throws IOException {
    for (FileStatus entry : fs.listStatus(dir)) {
      String name = entry.getPath().getName();
      if (HiddenNames.isHidden(name, partitionColumns)) {
        continue;
      }
      if (entry.isDirectory()) {
        collect(fs, entry.getPath(), partitionColumns, needed, cutoff, expired);
      } else if (entry.getModificationTime() < cutoff
          && !needed.contains(qualified(fs, entry.getPath().toString()))) {
        expired.put(entry.getPath(), entry.getLen());
      }
    }
  }

  private void delete(
      FileSystem fs,
      Map<Path, Long> expired,
      Duration retention,
      Duration tableRetention,
      long bytes)
      throws IOException {
    Map<String, String> start = new LinkedHashMap<>();
    start.put("retentionCheckEnabled", Boolean.toString(!force));
    start.put("defaultRetentionMillis", Long.toString(tableRetention.toMillis()));
    start.put("specifiedRetentionMillis", Long.toString(retention.toMillis()));
    Map<String, Long> startMetrics = new LinkedHashMap<>();
    startMetrics.put("numFilesToDelete", (long) expired.size());
    startMetrics.put("sizeOfDataToDelete", bytes);
    record("VACUUM START", start, startMetrics);
    long deleted = 0;
    for (Path file : expired.keySet()) {
      if (fs.delete(file, false) || !fs.exists(file)) {
        deleted++;
      } else {
        throw new IOException("VACUUM could not delete " + file);
      }
    }
    LOG.info("{}: VACUUM deleted {} files ({} bytes)", table.path(), deleted, bytes);
    Map<String, Long> endMetrics = new LinkedHashMap<>();
    endMetrics.put("numDeletedFiles", deleted);
    endMetrics.put("numVacuumedDirectories", 0L);
    record("VACUUM END", Map.of("status", "COMPLETED"), endMetrics);
  }

  /** A commit of only a commitInfo: it conflicts with nothing. */
  private void record(String operation, Map<String, String> parameters, Map<String, Long> metrics)
      throws IOException {
    String root =
        io.delta.kernel.Table.forPath(table.engine(), table.path()).getPath(table.engine());
    new LogCommit(table)
        .commit(
            table.latestSnapshot().orElseThrow(),
            (version, ict) ->
                new MaintenanceCommitFile(root)
                    .commitInfo(operation, System.currentTimeMillis(), ict, -1, parameters, metrics)
                    .lines(),
            winner -> Optional.empty());
  }

  private static String qualified(FileSystem fs, String path) {
    return fs.makeQualified(new Path(path)).toUri().normalize().toString();
  }

  private static LakestreamException invalid(String message) {
    return new LakestreamException(DeltaErrorClass.DELTA_INVALID_MAINTENANCE, message);
  }

  /** Which entries of a table's directory VACUUM reads or passes by. */
  private static final class VacuumListing {
    private VacuumListing() {}

    static boolean isCommit(Path path) {
      return path.getName().matches("\\d{20}\\.json");
    }

    static List<JsonNode> actions(FileSystem fs, Path commit) throws IOException {
      List<JsonNode> actions = new ArrayList<>();
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(fs.open(commit), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (!line.isBlank()) {
            actions.add(MaintenanceCommitFile.JSON.readTree(line));
          }
        }
      }
      return actions;
    }
  }
}
