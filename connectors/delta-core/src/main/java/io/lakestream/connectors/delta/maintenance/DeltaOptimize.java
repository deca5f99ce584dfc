package io.lakestream.connectors.delta.maintenance;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaTypes;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import io.lakestream.connectors.delta.merge.MergeTableFeatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's {@code OPTIMIZE} (bin-packing): in each partition, the data files smaller than the target
 * size are packed into bins of up to that size, and each bin of two or more files is rewritten as
 * one file (or a few, at the target size). The new version removes the small files and adds the new
 * ones with {@code dataChange=false}: the rows are the same, so streaming readers and the change
 * data feed skip it, and time travel to earlier versions still reads the old files until VACUUM.
 *
 * <pre>{@code
 * DeltaOptimizeResult r = DeltaOptimize.forTable(table)
 *     .where(DeltaFilter.equalTo("day", LocalDate.of(2026, 12, 1)))
 *     .targetFileSize(128L << 20)
 *     .build()
 *     .run();
 * }</pre>
 *
 * <p>Concurrency: it never wins over another writer. If a version committed after the one it read
 * removed one of its input files or changed the table's metadata, the run ends {@link
 * DeltaOptimizeResult.Status#LOST_TO_CONCURRENT_COMMIT} and commits nothing; appends and MERGEs
 * that touch other files do not stop it. A MERGE that loses to it plans again on the new version.
 *
 * <p>Deletion vectors are purged as Delta's OPTIMIZE does: a file with one is compacted when it is
 * small, or whatever its size when more than {@link Builder#maxDeletedRowsRatio} of its rows are
 * deleted (Spark's {@code spark.databricks.delta.optimize.maxDeletedRowsRatio}, 0.05), and its
 * deleted rows are not written again. Tables with column mapping are compacted under their physical
 * names (data columns and partition values), and versions of tables with in-commit timestamps carry
 * one. On tables with row tracking the new files get fresh {@code baseRowId}s above the high water
 * mark, and with {@code delta.enableRowTracking=true} every row keeps its row id and commit version
 * in the materialized columns, as Delta's OPTIMIZE keeps them (such a compaction loses to any
 * concurrent commit that assigned row ids). Fails with a {@link LakestreamException} ({@code
 * DELTA_INVALID_MAINTENANCE}) for a {@code where} on a column that is not a partition column, and
 * with {@link DeltaTableException} if the table is missing or cannot be read or written.
 */
@PublicEvolving
public final class DeltaOptimize {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaOptimize.class);

  /** Delta's default target file size: 128 MiB. */
  public static final long DEFAULT_TARGET_FILE_SIZE = 128L * 1024 * 1024;

  private static final String TARGET_FILE_SIZE =
      "delta.kernel.default.parquet.writer.targetMaxFileSize";

  private final DeltaTable table;
  private final DeltaFilter where;
  private final String whereText;
  private final long targetFileSize;
  private final int minFiles;
  private final Set<Map<String, String>> partitions;
  private final double maxDeletedRowsRatio;
  private final boolean auto;
  private Runnable afterRewrite; // test hook: between writing the files and committing them

  private DeltaOptimize(Builder b) {
    this.table = b.table;
    this.where = b.where;
    this.whereText = b.whereText;
    this.targetFileSize = b.targetFileSize;
    this.minFiles = b.minFiles;
    this.partitions = b.partitions;
    this.maxDeletedRowsRatio = b.maxDeletedRowsRatio;
    this.auto = b.auto;
  }

  /** Starts an OPTIMIZE of {@code table}. */
  public static Builder forTable(DeltaTable table) {
    return new Builder(table);
  }

  /** Test hook: runs after the compacted files are written, before they are committed. */
  DeltaOptimize afterRewrite(Runnable hook) {
    this.afterRewrite = hook;
    return this;
  }

  /**
   * Compacts the small files once.
   *
   * @throws DeltaTableException if the table is missing, or cannot be read or written
   * @throws IOException if the commit file cannot be written
   */
  public DeltaOptimizeResult run() throws IOException {
    Snapshot snapshot = table.latestSnapshot().orElseThrow(this::missing);
    MergeTableFeatures features = MergeTableFeatures.of(snapshot, 0);
    List<List<CompactedFile>> bins = bins(candidates(snapshot, features));
    if (bins.isEmpty()) {
      return DeltaOptimizeResult.nothing(snapshot.getVersion());
    }
    List<DeltaWrittenFile> added = rewrite(snapshot, bins, features);
    if (afterRewrite != null) {
      afterRewrite.run();
    }
    List<CompactedFile> removed = bins.stream().flatMap(List::stream).toList();
    Set<String> inputs = inputPaths(removed);
    Optional<Long> version =
        new LogCommit(table)
            .commit(
                snapshot,
                (next, ict) ->
                    commitLines(snapshot.getVersion(), removed, added, features, next, ict),
                w -> conflict(w, inputs, features));
    return new DeltaOptimizeResult(
        version.isPresent()
            ? DeltaOptimizeResult.Status.COMMITTED
            : DeltaOptimizeResult.Status.LOST_TO_CONCURRENT_COMMIT,
        version.orElse(-1L),
        snapshot.getVersion(),
        removed.size(),
        added.size(),
        removed.stream().mapToLong(CompactedFile::size).sum(),
        added.stream().mapToLong(DeltaWrittenFile::size).sum(),
        (int) removed.stream().map(CompactedFile::partitionValues).distinct().count());
  }

  /**
   * In the partitions chosen, by partition: the small files, and the files whose deletion vector
   * deletes more than the ratio allowed.
   */
  private Map<Map<String, String>, List<CompactedFile>> candidates(
      Snapshot snapshot, MergeTableFeatures features) throws IOException {
    StructType schema = snapshot.getSchema();
    List<String> partitionColumns = snapshot.getPartitionColumnNames();
    DeltaFileSkipping skipping = partitionSkipping(filter(schema), schema, partitionColumns);
    KernelTablePath root = KernelTablePath.of(snapshot.getPath());
    Map<String, String> logical = invert(features.physicalNames());
    Map<Map<String, String>, List<CompactedFile>> byPartition = new LinkedHashMap<>();
    Scan scan = snapshot.getScanBuilder().build();
    KernelScanFile.forEach(
        table.engine(),
        scan,
        true,
        file -> {
          long size = file.status().getSize();
          Map<String, String> partition = file.partitionValues();
          Map<String, String> byName = renamed(partition, logical);
          long records = numRecords(file.stats());
          boolean purge = records > 0 && file.deletedRows() > maxDeletedRowsRatio * records;
          if ((size >= targetFileSize && !purge)
              || !skipping.mayMatch(byName, null)
              || (partitions != null && !partitions.contains(byName))) {
            return;
          }
          String absolute = file.status().getPath();
          byPartition
              .computeIfAbsent(partition, k -> new ArrayList<>())
              .add(
                  new CompactedFile(
                      root.relativize(absolute),
                      absolute,
                      partition,
                      size,
                      file.stats(),
                      records < 0 ? -1 : records - file.deletedRows(),
                      file.deletionVector(),
                      file.baseRowId().orElse(null),
                      file.defaultRowCommitVersion().orElse(null)));
        });
    return byPartition;
  }

  private static Map<String, String> invert(Map<String, String> names) {
    Map<String, String> inverse = new LinkedHashMap<>();
    names.forEach((k, v) -> inverse.put(v, k));
    return inverse;
  }

  /** {@code values} with each key replaced by its name in {@code names} (kept if absent). */
  private static Map<String, String> renamed(
      Map<String, String> values, Map<String, String> names) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(names.getOrDefault(k, k), v));
    return out;
  }

  /**
   * Per partition with at least {@code minFiles} candidates or (not in auto-compaction, which waits
   * for small files to pile up) a deletion vector to purge: bins of two or more files, or of one
   * file with a deletion vector.
   */
  private List<List<CompactedFile>> bins(Map<Map<String, String>, List<CompactedFile>> files) {
    List<List<CompactedFile>> bins = new ArrayList<>();
    for (List<CompactedFile> partition : files.values()) {
      if (partition.size() < minFiles
          && (auto || partition.stream().allMatch(f -> f.deletionVector() == null))) {
        continue;
      }
      partition.sort(Comparator.comparingLong(CompactedFile::size));
      List<CompactedFile> bin = new ArrayList<>();
      long binSize = 0;
      for (CompactedFile file : partition) {
        if (!bin.isEmpty() && binSize + file.size() > targetFileSize) {
          addIfWorthIt(bins, bin);
          bin = new ArrayList<>();
          binSize = 0;
        }
        bin.add(file);
        binSize += file.size();
      }
      addIfWorthIt(bins, bin);
    }
    return bins;
  }

  /** Two or more files make one; a single file only to purge its deleted rows. */
  private static void addIfWorthIt(List<List<CompactedFile>> bins, List<CompactedFile> bin) {
    if (bin.size() >= 2 || (bin.size() == 1 && bin.get(0).deletionVector() != null)) {
      bins.add(bin);
    }
  }

  /**
   * Reads each bin's rows and writes them again, one bin at a time (memory holds one bin). With row
   * tracking enabled each row carries its id and commit version into the new file's materialized
   * columns, so it keeps them.
   */
  private List<DeltaWrittenFile> rewrite(
      Snapshot snapshot, List<List<CompactedFile>> bins, MergeTableFeatures features)
      throws IOException {
    List<String> materialized = features.materializedColumns();
    StructType schema = snapshot.getSchema();
    List<String> partitionColumns = snapshot.getPartitionColumnNames();
    DeltaDataFileReader reader =
        new DeltaDataFileReader(
            table,
            schema.toJson(),
            partitionColumns,
            schema.fieldNames(),
            KernelColumnMapping.mode(snapshot.getTableProperties()),
            materialized);
    DeltaTable target = table.withHadoopSetting(TARGET_FILE_SIZE, Long.toString(targetFileSize));
    DeltaTableWriter writer =
        new DeltaTableWriter(target, declaration(snapshot.getSchema(), partitionColumns))
            .withHiddenLongColumns(materialized);
    List<DeltaWrittenFile> added = new ArrayList<>();
    for (List<CompactedFile> bin : bins) {
      for (CompactedFile file : bin) {
        try (DeltaDataFileReader.Rows rows = reader.open(addedFile(snapshot.getVersion(), file))) {
          while (rows.hasNext()) {
            Object[] row = rows.next();
            writer.append(materialized.isEmpty() ? row : withIdentity(row, rows, file));
          }
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
      added.addAll(writer.flush());
    }
    return added;
  }

  /** {@code row}, then its row id and commit version as the materialized columns keep them. */
  private static Object[] withIdentity(
      Object[] row, DeltaDataFileReader.Rows rows, CompactedFile file) {
    Object[] out = java.util.Arrays.copyOf(row, row.length + 2);
    out[row.length] = rows.stableRowId(file.baseRowId());
    out[row.length + 1] = rows.rowCommitVersion(file.defaultRowCommitVersion());
    return out;
  }

  private static DeltaTableSchema declaration(StructType schema, List<String> partitionColumns) {
    return DeltaTableSchema.builder()
        .columns(DeltaTypes.fromKernel(schema))
        .partitionedBy(partitionColumns.toArray(new String[0]))
        .build();
  }

  private static DeltaAddedFile addedFile(long version, CompactedFile file) {
    return new DeltaAddedFile(
        file.absolutePath(),
        version,
        0,
        true,
        file.partitionValues(),
        file.size(),
        file.numRecords(),
        file.deletionVector());
  }

  private List<String> commitLines(
      long readVersion,
      List<CompactedFile> removed,
      List<DeltaWrittenFile> added,
      MergeTableFeatures features,
      long version,
      Long inCommitTimestamp) {
    long now = System.currentTimeMillis();
    MaintenanceCommitFile file = new MaintenanceCommitFile(rootOf());
    file.commitInfo(
        "OPTIMIZE", now, inCommitTimestamp, readVersion, parameters(), metrics(removed, added));
    removed.forEach(f -> file.remove(f, now));
    long nextRowId = features.rowIdHighWaterMark() + 1;
    for (DeltaWrittenFile f : added) {
      Long baseRowId = features.rowTracking() ? nextRowId : null;
      nextRowId += f.numRecords();
      file.add(f, features.physicalKeys(f.partitionValues()), baseRowId, version);
    }
    if (features.rowTracking() && nextRowId - 1 > features.rowIdHighWaterMark()) {
      file.rowIdHighWaterMark(nextRowId - 1);
    }
    return file.lines();
  }

  private String rootOf() {
    return io.delta.kernel.Table.forPath(table.engine(), table.path()).getPath(table.engine());
  }

  /** Spark's OPTIMIZE parameters: the predicate, no Z-order, and whether it is auto-compaction. */
  private Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    String predicate = whereText != null ? whereText : where == null ? null : where.toString();
    p.put("predicate", predicate == null ? "[]" : "[\"" + predicate.replace("\"", "\\\"") + "\"]");
    p.put("zOrderBy", "[]");
    p.put("auto", Boolean.toString(auto));
    return p;
  }

  private static Map<String, Long> metrics(
      List<CompactedFile> removed, List<DeltaWrittenFile> added) {
    long[] sizes = added.stream().mapToLong(DeltaWrittenFile::size).sorted().toArray();
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("numRemovedFiles", (long) removed.size());
    m.put("numRemovedBytes", removed.stream().mapToLong(CompactedFile::size).sum());
    m.put("numAddedFiles", (long) added.size());
    m.put("numAddedBytes", added.stream().mapToLong(DeltaWrittenFile::size).sum());
    m.put(
        "numDeletionVectorsRemoved",
        removed.stream().filter(f -> f.deletionVector() != null).count());
    m.put("minFileSize", sizes.length == 0 ? 0 : sizes[0]);
    m.put("p50FileSize", sizes.length == 0 ? 0 : sizes[sizes.length / 2]);
    m.put("maxFileSize", sizes.length == 0 ? 0 : sizes[sizes.length - 1]);
    return m;
  }

  private static Set<String> inputPaths(List<CompactedFile> removed) {
    Set<String> paths = new HashSet<>();
    for (CompactedFile f : removed) {
      paths.add(f.logPath());
      paths.add(f.absolutePath());
    }
    return paths;
  }

  /** Why a winning version's actions conflict with this compaction, or empty. */
  private Optional<String> conflict(
      List<String> winner, Set<String> inputs, MergeTableFeatures features) {
    KernelTablePath root = KernelTablePath.of(rootOf());
    for (String line : winner) {
      if (features.rowTracking() && line.contains("\"delta.rowTracking\"")) {
        return Optional.of("it assigned row ids after the version this compaction numbered from");
      }
      if (line.contains("\"metaData\"") || line.contains("\"protocol\"")) {
        return Optional.of("it changed the table's metadata or protocol");
      }
      Optional<String> removed = LogActions.removedPath(line);
      if (removed.isPresent()
          && (inputs.contains(removed.get()) || inputs.contains(root.resolve(removed.get())))) {
        return Optional.of("it removed " + removed.get() + ", one of the files being compacted");
      }
    }
    return Optional.empty();
  }

  /** The partition filter: given, or read from the predicate text with the table's schema. */
  private DeltaFilter filter(StructType schema) {
    return whereText != null ? PartitionPredicate.parse(whereText, schema) : where;
  }

  private DeltaFileSkipping partitionSkipping(
      DeltaFilter where, StructType schema, List<String> partitionColumns) {
    if (where == null) {
      return DeltaFileSkipping.none();
    }
    for (String column : columns(where)) {
      if (partitionColumns.stream().noneMatch(column::equalsIgnoreCase)) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MAINTENANCE,
            "OPTIMIZE of "
                + table.path()
                + " filters on '"
                + column
                + "', which is not a partition column ("
                + partitionColumns
                + "): OPTIMIZE WHERE takes partition columns only, as Delta's does.");
      }
    }
    return DeltaFileSkipping.of(where, schema, partitionColumns, table.path());
  }

  private static long numRecords(String stats) {
    return LogActions.numRecords(stats);
  }

  /** The columns a filter names. */
  private static Set<String> columns(DeltaFilter filter) {
    Set<String> columns = new HashSet<>();
    if (filter instanceof DeltaFilter.Comparison c) {
      columns.add(c.column());
    } else if (filter instanceof DeltaFilter.In in) {
      columns.add(in.column());
    } else if (filter instanceof DeltaFilter.NullTest n) {
      columns.add(n.column());
    } else if (filter instanceof DeltaFilter.And and) {
      and.filters().forEach(f -> columns.addAll(columns(f)));
    } else if (filter instanceof DeltaFilter.Or or) {
      or.filters().forEach(f -> columns.addAll(columns(f)));
    }
    return columns;
  }

  private DeltaTableException missing() {
    return new DeltaTableException(
        DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path());
  }

  /** Settings of an OPTIMIZE; {@link #build} checks them. */
  public static final class Builder {
    private final DeltaTable table;
    private DeltaFilter where;
    private String whereText;
    private long targetFileSize = DEFAULT_TARGET_FILE_SIZE;
    private int minFiles = 2;
    private Set<Map<String, String>> partitions;
    private double maxDeletedRowsRatio = 0.05;
    private boolean auto;

    private Builder(DeltaTable table) {
      this.table = Objects.requireNonNull(table, "table");
    }

    /** Only partitions whose values match {@code partitionFilter} (partition columns only). */
    public Builder where(DeltaFilter partitionFilter) {
      this.where = partitionFilter;
      this.whereText = null;
      return this;
    }

    /**
     * Only partitions matching a predicate as SQL writes it: {@code day >= '2026-12-01' AND region
     * IN ('eu', 'us')} (comparisons and IN of partition columns, joined by AND).
     */
    public Builder where(String predicate) {
      this.whereText = predicate;
      this.where = null;
      return this;
    }

    /** Files below this size are compacted into files of about this size (default 128 MiB). */
    public Builder targetFileSize(long bytes) {
      this.targetFileSize = bytes;
      return this;
    }

    /** Only partitions with at least this many small files (default 2). */
    public Builder minFilesPerPartition(int files) {
      this.minFiles = files;
      return this;
    }

    /** Only these partitions (partition column to value text), as auto-compaction chooses. */
    public Builder onlyPartitions(Collection<Map<String, String>> values) {
      this.partitions = Set.copyOf(values);
      return this;
    }

    /**
     * Files whose deletion vector deletes more than this share of their rows are rewritten whatever
     * their size (default 0.05, Spark's {@code
     * spark.databricks.delta.optimize.maxDeletedRowsRatio}).
     */
    public Builder maxDeletedRowsRatio(double ratio) {
      this.maxDeletedRowsRatio = ratio;
      return this;
    }

    /** Records the run as auto-compaction ({@code auto = true} in the commit's parameters). */
    public Builder auto(boolean auto) {
      this.auto = auto;
      return this;
    }

    /**
     * @throws LakestreamException ({@code DELTA_INVALID_MAINTENANCE}) for a target size below 1 MiB
     *     or fewer than two files per partition
     */
    public DeltaOptimize build() {
      if (targetFileSize < 1024 * 1024) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MAINTENANCE,
            "OPTIMIZE target file size "
                + targetFileSize
                + " bytes is below 1 MiB; use a size such as 128m (Delta's default)");
      }
      if (minFiles < 2) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MAINTENANCE,
            "OPTIMIZE needs at least two small files in a partition to compact; minFiles was "
                + minFiles);
      }
      return new DeltaOptimize(this);
    }
  }
}
