package io.lakestream.connectors.delta.merge;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.engine.Engine;
import io.delta.storage.LogStore;
import io.lakestream.api.annotation.Experimental;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaChangeDataWriter;
import io.lakestream.connectors.delta.DeltaCommitConflictException;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import io.lakestream.connectors.delta.kernel.KernelLogStores;
import io.lakestream.connectors.delta.maintenance.PartitionCompaction;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a {@link DeltaMerge} batch per epoch as ONE Delta table version, exactly once per {@code
 * (appId, epoch)}. On a table with {@code delta.enableDeletionVectors=true}, as Databricks'
 * merge-on-read: the updated and deleted rows are marked deleted in their files by deletion vectors
 * (the file is removed with its old vector and added again with the new one) and the updated rows
 * go to new files, so a batch costs what it touches, not the size of the files it touches ({@link
 * #withDeletionVectors} turns this off). Otherwise copy-on-write: files with an updated or deleted
 * row are rewritten whole. Inserts go to new files. On a table with {@code
 * delta.enableChangeDataFeed=true}, change data files under {@code _change_data/} with {@code
 * update_preimage}, {@code update_postimage}, {@code delete} and {@code insert} rows (a batch that
 * only inserts writes none: its add actions are its change feed, as the Delta protocol reads a
 * version without cdc actions).
 *
 * <p>The commit is written by lakestream, not Delta Kernel (Kernel 4.4 refuses removes with
 * dataChange on CDF tables and cannot write cdc actions): the version's JSON ({@link
 * MergeCommitFile}) is written put-if-absent through the log store Kernel's engine uses for the
 * table's scheme ({@code S3ConditionalPutLogStore} on {@code s3a://}), so exactly one writer gets
 * each version.
 *
 * <p>Exactly once: before planning, the snapshot's {@code txn} version for {@code appId} is read;
 * if it is {@code >= epoch} nothing is written ({@code ALREADY_COMMITTED}). Epochs must come in
 * increasing order per appId.
 *
 * <p>Optimistic concurrency: if another writer wrote the version first, its actions are checked
 * ({@link ConcurrentCommitCheck}). Without a conflict the batch is rebased on it (written as the
 * next version, unchanged, since it still reads and removes exactly what it planned); if the winner
 * carries this epoch's txn, the result is {@code ALREADY_COMMITTED}; on a conflict {@link
 * DeltaCommitConflictException} names the winning version and why, and nothing is committed: {@link
 * #commit} plans the batch again on the new version (a few times), else the caller retries the
 * whole epoch (a streaming query does so after restoring its checkpoint). Either way the other
 * writer's commit stands. After {@code maxAttempts} lost races without conflict, also {@link
 * DeltaCommitConflictException}.
 *
 * <p>Table features: files with deletion vectors are read without their deleted rows; column
 * mapping ({@code name}, {@code id}) writes data and change files, statistics and partition values
 * under physical names; row tracking gives new files {@code baseRowId} and {@code
 * defaultRowCommitVersion} above the recorded high water mark (which the commit raises), and keeps
 * them on removed and re-added files; in-commit timestamps put a monotonic {@code
 * inCommitTimestamp} in {@code commitInfo}. A batch that updates or deletes rows of a table with
 * {@code delta.appendOnly=true} is refused with a {@link DeltaTableException} naming the property.
 * With row tracking enabled ({@code delta.enableRowTracking=true}), rows written anew keep their
 * row ids (and unchanged copied rows their commit versions) in the table's materialized columns, as
 * Delta's own MERGE keeps them stable.
 *
 * <p>On a table with {@code delta.autoOptimize.autoCompact} = {@code true} or {@code auto}, as
 * Databricks compacts MERGE output, a committed batch is followed by {@link PartitionCompaction} of
 * the partitions it wrote (after the commit, which always stands). Flink-free; serializable (the
 * merge and table travel, engines are made per JVM).
 *
 * <p>Cost per epoch: the table's data files are listed through Kernel once per JVM; later epochs
 * apply only the actions of the commits since ({@code MergeFileIndex}, which lists afresh whenever
 * it cannot follow the log), so finding the candidate files does not replay the whole log.
 *
 * <p>Parallelism: the per-file work of a batch runs on up to {@link #parallelism()} threads (the
 * JVM's available processors unless {@link #withParallelism} says otherwise; a foreachBatch sink
 * passes its own parallelism): each candidate file is read and the clauses applied in its own task,
 * then each rewritten file, the moved and inserted rows and the change data are written in their
 * own tasks. Results are put together in plan order, so the committed actions do not depend on the
 * threads' timing; the commit itself (and the exactly-once check before planning) stays in the
 * calling thread. A failing task fails the batch before anything is committed: the files other
 * tasks wrote stay unreferenced until VACUUM, as after any failed commit.
 */
@PublicEvolving
public final class DeltaMergeCommit implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaMergeCommit.class);

  /** Default bound on commit attempts when other writers keep winning without conflict. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  private final DeltaMerge merge;
  private final String appId;
  private final int maxAttempts;
  private final Boolean deletionVectors; // null: where the table enables them
  private final int parallelism; // 0: the available processors
  private transient Runnable afterPlanning;
  private transient MergeFileIndex files; // the table's files across epochs, made on first use

  /**
   * How often {@link #commit} plans a batch again on the latest version after a conflicting
   * concurrent commit, before it gives up with {@link DeltaCommitConflictException}.
   */
  public static final int MAX_REPLANS = 3;

  /** Commits {@code merge} batches for the application {@code appId}. */
  public DeltaMergeCommit(DeltaMerge merge, String appId) {
    this(merge, appId, DEFAULT_MAX_ATTEMPTS);
  }

  /**
   * @param maxAttempts commit attempts when other writers keep winning without conflict (>= 1)
   */
  public DeltaMergeCommit(DeltaMerge merge, String appId, int maxAttempts) {
    this(merge, appId, maxAttempts, null, 0);
  }

  private DeltaMergeCommit(
      DeltaMerge merge, String appId, int maxAttempts, Boolean dvs, int parallelism) {
    this.deletionVectors = dvs;
    this.parallelism = parallelism;
    this.merge = Objects.requireNonNull(merge, "merge");
    this.appId = Objects.requireNonNull(appId, "appId");
    if (appId.isBlank()) {
      throw new IllegalArgumentException("appId must not be blank");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
  }

  public String appId() {
    return appId;
  }

  /**
   * This commit, marking matched rows deleted with deletion vectors ({@code true}, the default on
   * tables with {@code delta.enableDeletionVectors=true}) or rewriting their files ({@code false},
   * copy-on-write). Deletion vectors on a table that does not enable them fail the batch with a
   * {@link DeltaTableException} naming the property.
   */
  public DeltaMergeCommit withDeletionVectors(boolean enabled) {
    return new DeltaMergeCommit(merge, appId, maxAttempts, enabled, parallelism);
  }

  /**
   * This commit, reading the candidate files and writing the rewritten, new and change data files
   * of a batch on up to {@code threads} threads (one task per file; a foreachBatch sink passes the
   * sink's parallelism, see {@link #asEpochFunction()}). The default is the JVM's available
   * processors. Whatever the number, a batch commits the same actions in the same order, and a
   * failing task fails the batch with nothing committed. Conditions and assignments of the {@link
   * DeltaMerge} may then run in several threads at once.
   *
   * @param threads threads at most (>= 1; 1 runs the batch in the calling thread)
   */
  public DeltaMergeCommit withParallelism(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, was " + threads);
    }
    return new DeltaMergeCommit(merge, appId, maxAttempts, deletionVectors, threads);
  }

  /** The threads a batch's per-file work runs on at most. */
  public int parallelism() {
    return parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
  }

  /**
   * Merges {@code sourceRows} as epoch {@code epoch}: {@link #prepare} then {@link
   * #commitPrepared}; on a conflict with a concurrent commit, plans the batch again on the new
   * version (the other writer's commit stands, this MERGE applies after it), up to {@link
   * #MAX_REPLANS} times. Files of a discarded plan stay unreferenced until VACUUM.
   *
   * @throws DuplicateMergeKeyException see {@link DeltaMerge}
   * @throws DeltaCommitConflictException see the class comment
   * @throws DeltaTableException if the table cannot be read or written, or is refused
   */
  public DeltaMergeResult commit(long epoch, List<Object[]> sourceRows) throws IOException {
    for (int replan = 1; ; replan++) {
      PreparedMerge prepared = prepare(epoch, sourceRows);
      if (afterPlanning != null) {
        afterPlanning.run();
      }
      try {
        return commitPrepared(prepared);
      } catch (DeltaCommitConflictException e) {
        if (replan > MAX_REPLANS) {
          throw e;
        }
        LOG.info(
            "{}: MERGE epoch {} of app {} conflicts with a concurrent commit; planning it again on"
                + " the latest version ({} of {} re-plans): {}",
            merge.table().path(),
            epoch,
            appId,
            replan,
            MAX_REPLANS,
            e.getMessage());
      }
    }
  }

  /** Test hook: runs between planning and committing in {@link #commit}. */
  void afterPlanning(Runnable hook) {
    this.afterPlanning = hook;
  }

  /**
   * Plans the batch on the latest snapshot and writes its data and change data files, without
   * committing. Creates the table if missing (or checks its schema against the declaration).
   *
   * @throws DuplicateMergeKeyException see {@link DeltaMerge}
   * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_ROW}) if a source row
   *     does not fit the table (names row and column)
   * @throws DeltaTableException if the table cannot be read or written, or is refused
   */
  @Experimental
  public PreparedMerge prepare(long epoch, List<Object[]> sourceRows) {
    DeltaTable table = merge.table();
    table.ensureExists(merge.schema());
    Engine engine = table.engine();
    Snapshot snapshot =
        table
            .latestSnapshot()
            .orElseThrow(
                () ->
                    new DeltaTableException(
                        DeltaErrorClass.DELTA_TABLE_NOT_FOUND,
                        "No Delta table at " + table.path()));
    MergeFileIndex.View view = filesAt(snapshot);
    Optional<Long> done = view.txn();
    if (done.isPresent() && done.get() >= epoch) {
      LOG.info(
          "{}: MERGE epoch {} of app {} is already committed (txn version {}), skipping",
          table.path(),
          epoch,
          appId,
          done.get());
      return new PreparedMerge(
          epoch,
          null,
          null,
          null,
          0,
          0,
          DeltaMergeResult.Status.ALREADY_COMMITTED,
          snapshot.getVersion());
    }
    Map<String, String> properties = snapshot.getTableProperties();
    MergeTableFeatures features = MergeTableFeatures.of(snapshot, snapshot.getTimestamp(engine));
    ParallelFileTasks tasks = new ParallelFileTasks(parallelism());
    MergePlan plan =
        new MergePlanner(merge, useDeletionVectors(features), features.materializedColumns(), tasks)
            .plan(snapshot, view.files(), sourceRows);
    if (plan.changesNothing()) {
      return new PreparedMerge(
          epoch,
          plan,
          null,
          features,
          0,
          0,
          DeltaMergeResult.Status.NO_CHANGE,
          snapshot.getVersion());
    }
    if (!plan.removed().isEmpty() && isTrue(properties, "delta.appendOnly")) {
      throw refused("delta.appendOnly=true", "the table only accepts appends");
    }
    WrittenFiles written = writeFiles(tasks, plan, properties, features);
    List<DeltaWrittenFile> dataFiles = written.data();
    List<DeltaWrittenFile> changeFiles = written.changes();
    List<DeltaDeletionVector> vectors = writeVectors(plan);
    MergeCommitContent content =
        new MergeCommitContent(
            root(engine),
            System.currentTimeMillis(),
            plan.readVersion(),
            parameters(),
            metrics(plan, dataFiles, changeFiles, sourceRows.size()),
            appId,
            epoch,
            plan.removed(),
            vectors,
            dataFiles,
            changeFiles);
    PreparedMerge prepared =
        new PreparedMerge(
            epoch,
            plan,
            content,
            features,
            dataFiles.size(),
            changeFiles.size(),
            DeltaMergeResult.Status.COMMITTED,
            snapshot.getVersion());
    prepared.compaction = PartitionCompaction.of(table, properties, false).orElse(null);
    prepared.checkpointInterval = checkpointInterval(properties);
    return prepared;
  }

  /**
   * The data files of {@code snapshot} and this app's txn version there, from the index this commit
   * keeps across epochs (a fresh listing on its first use or when it cannot follow the log).
   */
  MergeFileIndex.View filesAt(Snapshot snapshot) {
    synchronized (this) {
      if (files == null) {
        files = new MergeFileIndex(appId);
      }
    }
    Engine engine = merge.table().engine();
    return files.at(engine, snapshot, root(engine), this::readCommit);
  }

  /** The JSON lines of the commit file of {@code version}. */
  private List<String> readCommit(long version) throws IOException {
    DeltaTable table = merge.table();
    Configuration conf = table.hadoopConfiguration();
    org.apache.hadoop.fs.Path rootPath = new org.apache.hadoop.fs.Path(root(table.engine()));
    LogStore logStore = KernelLogStores.forScheme(conf, rootPath.toUri().getScheme());
    return read(logStore, logFile(rootPath, version), conf);
  }

  private boolean useDeletionVectors(MergeTableFeatures features) {
    if (deletionVectors == null) {
      return features.deletionVectors();
    }
    if (deletionVectors && !features.deletionVectors()) {
      throw refused(
          "no delta.enableDeletionVectors=true (or no deletionVectors table feature)",
          "deletion vectors were asked for (withDeletionVectors(true)); set the table property"
              + " delta.enableDeletionVectors=true, or merge with withDeletionVectors(false)");
    }
    return deletionVectors;
  }

  /** The data and change data files of a batch, in plan order. */
  private record WrittenFiles(List<DeltaWrittenFile> data, List<DeltaWrittenFile> changes) {}

  /**
   * Writes the rewritten files (one per removed file, so each keeps its key range), the moved and
   * inserted rows and the change data, one task per file on {@code tasks}. The data files come in
   * plan order (rewrites, moved rows, inserts), whatever the threads' timing.
   */
  private WrittenFiles writeFiles(
      ParallelFileTasks tasks,
      MergePlan plan,
      Map<String, String> properties,
      MergeTableFeatures features) {
    DeltaTableWriter writer =
        new DeltaTableWriter(merge.table(), merge.schema())
            .withHiddenLongColumns(features.materializedColumns());
    writer.open(); // once, before the threads: each task writes through its own sibling
    boolean cdc =
        isTrue(properties, "delta.enableChangeDataFeed")
            && plan.rowsUpdated() + plan.rowsDeleted() > 0;
    List<Supplier<List<DeltaWrittenFile>>> work = new ArrayList<>();
    if (cdc) { // first: the largest file, so it does not start last
      DeltaChangeDataWriter changes =
          new DeltaChangeDataWriter(merge.table(), merge.schema(), features.physicalNames());
      work.add(() -> changes.write(plan.changeRows(), plan.changeTypes()));
    }
    for (List<Object[]> rows : plan.rewrittenRows()) {
      work.add(() -> writer.sibling().write(rows));
    }
    work.add(() -> writer.sibling().write(plan.movedRows()));
    work.add(() -> writer.sibling().write(plan.insertedRows()));
    List<List<DeltaWrittenFile>> results = tasks.map("write", work, Supplier::get);
    List<DeltaWrittenFile> data = new ArrayList<>();
    results.subList(cdc ? 1 : 0, results.size()).forEach(data::addAll);
    return new WrittenFiles(data, cdc ? results.get(0) : List.of());
  }

  /** Writes the new deletion vectors into one file; their descriptors, parallel to removed. */
  private List<DeltaDeletionVector> writeVectors(MergePlan plan) {
    if (!plan.usesDeletionVectors()) {
      return List.of();
    }
    List<RowIndexBitmap> kept = plan.deletionVectors().stream().filter(v -> v != null).toList();
    Iterator<DeltaDeletionVector> written =
        new DeletionVectorStore(merge.table()).write(kept).iterator();
    List<DeltaDeletionVector> vectors = new ArrayList<>();
    for (RowIndexBitmap vector : plan.deletionVectors()) {
      vectors.add(vector == null ? null : written.next());
    }
    return vectors;
  }

  /**
   * Commits a prepared batch as the next version (see the class comment for races and conflicts).
   *
   * @throws DeltaCommitConflictException see the class comment
   * @throws DeltaTableException if the commit file cannot be written or a winning commit read
   */
  @Experimental
  public DeltaMergeResult commitPrepared(PreparedMerge prepared) throws IOException {
    if (prepared.status != DeltaMergeResult.Status.COMMITTED) {
      return prepared.result(prepared.status, prepared.seenVersion, 0);
    }
    DeltaTable table = merge.table();
    Engine engine = table.engine();
    String root = root(engine);
    Configuration conf = table.hadoopConfiguration();
    org.apache.hadoop.fs.Path rootPath = new org.apache.hadoop.fs.Path(root);
    LogStore logStore = KernelLogStores.forScheme(conf, rootPath.toUri().getScheme());
    ConcurrentCommitCheck check =
        new ConcurrentCommitCheck(
            root, prepared.plan.removed(), prepared.plan.keyRanges(), appId, prepared.epoch);
    long version = prepared.plan.readVersion() + 1;
    MergeTableFeatures base = prepared.features;
    for (int attempt = 1; attempt <= maxAttempts; ) {
      org.apache.hadoop.fs.Path commitFile = logFile(rootPath, version);
      try {
        logStore.write(commitFile, prepared.content.lines(version, base).iterator(), false, conf);
      } catch (FileAlreadyExistsException lost) {
        List<String> winner = read(logStore, commitFile, conf);
        ConcurrentCommitCheck.Outcome outcome = check.check(winner);
        switch (outcome.verdict()) {
          case ALREADY_COMMITTED:
            LOG.info(
                "{}: version {} already holds MERGE epoch {} of app {}",
                table.path(),
                version,
                prepared.epoch,
                appId);
            return prepared.result(DeltaMergeResult.Status.ALREADY_COMMITTED, version, attempt);
          case CONFLICT:
            throw new DeltaCommitConflictException(
                "MERGE epoch "
                    + prepared.epoch
                    + " of app "
                    + appId
                    + " into "
                    + table.path()
                    + " (planned on version "
                    + prepared.plan.readVersion()
                    + ") conflicts with version "
                    + version
                    + ", which another writer committed first: "
                    + outcome.reason()
                    + ". Nothing was committed for the epoch (its files stay unreferenced until"
                    + " VACUUM); run the epoch again (a streaming query does so after restoring"
                    + " its last checkpoint), it will be planned on the new version.",
                lost);
          default:
            LOG.info(
                "{}: MERGE epoch {} lost version {} to a non-conflicting commit, rebasing",
                table.path(),
                prepared.epoch,
                version);
            base = base.after(winner);
            version++;
            attempt++;
            continue;
        }
      }
      LOG.debug(
          "{}: committed MERGE epoch {} as version {}", table.path(), prepared.epoch, version);
      checkpointIfDue(engine, version, prepared.checkpointInterval);
      if (prepared.compaction != null) {
        prepared.compaction.after("MERGE epoch " + prepared.epoch, prepared.content.dataFiles());
      }
      return prepared.result(DeltaMergeResult.Status.COMMITTED, version, attempt);
    }
    throw new DeltaCommitConflictException(
        "MERGE epoch "
            + prepared.epoch
            + " of app "
            + appId
            + " could not be committed to "
            + table.path()
            + " after "
            + maxAttempts
            + " attempts: other writers kept committing first. Nothing was committed; run the"
            + " epoch again.",
        null);
  }

  /**
   * This commit as the function of a foreachBatch sink (the Delta connector's {@code
   * ForeachBatchSinkBuilder}): each epoch's rows become one MERGE version, a replayed epoch is
   * skipped; failures propagate. Unless {@link #withParallelism} was set, a batch's per-file work
   * runs on as many threads as the sink's parallelism (the sink opens the function with it).
   */
  public io.lakestream.connectors.sink.EpochFunction asEpochFunction() {
    return new MergeEpochFunction(this);
  }

  /** {@link #asEpochFunction()}: commits each epoch, at the sink's parallelism once opened. */
  private static final class MergeEpochFunction
      implements io.lakestream.connectors.sink.EpochFunction {
    private static final long serialVersionUID = 1L;
    private DeltaMergeCommit commit;

    MergeEpochFunction(DeltaMergeCommit commit) {
      this.commit = commit;
    }

    @Override
    public void open(int parallelism) {
      if (commit.parallelism == 0 && parallelism >= 1) {
        commit = commit.withParallelism(parallelism);
      }
    }

    @Override
    public void call(long epoch, List<Object[]> rows) throws IOException {
      commit.commit(epoch, rows);
    }

    @Override
    public String toString() {
      return commit.toString();
    }
  }

  private DeltaTableException refused(String property, String why) {
    return new DeltaTableException(
        DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
        "Cannot MERGE into the Delta table at "
            + merge.table().path()
            + ": it has "
            + property
            + " and "
            + why
            + ".");
  }

  private static boolean isTrue(Map<String, String> properties, String key) {
    String v = properties.get(key);
    return v != null && v.trim().toLowerCase(Locale.ROOT).equals("true");
  }

  private Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    List<String> predicate = new ArrayList<>();
    for (String key : merge.keyColumns()) {
      predicate.add("target." + key + " = source." + key);
    }
    p.put("predicate", "[\"" + String.join(" AND ", predicate) + "\"]");
    p.put("clauses", merge.describeClauses());
    merge.orderingColumn().ifPresent(c -> p.put("lastByOrderingColumn", c));
    return p;
  }

  private static Map<String, Long> metrics(
      MergePlan plan,
      List<DeltaWrittenFile> dataFiles,
      List<DeltaWrittenFile> changeFiles,
      int sourceRows) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("numSourceRows", (long) sourceRows);
    m.put("numTargetRowsInserted", plan.rowsInserted());
    m.put("numTargetRowsUpdated", plan.rowsUpdated());
    m.put("numTargetRowsDeleted", plan.rowsDeleted());
    m.put("numTargetRowsCopied", plan.rowsCopied());
    m.put("numOutputRows", (long) plan.newRowCount());
    m.put("numTargetFilesAdded", (long) dataFiles.size());
    m.put("numTargetFilesRemoved", (long) plan.removed().size());
    m.put("numTargetChangeFilesAdded", (long) changeFiles.size());
    m.put("numTargetBytesAdded", dataFiles.stream().mapToLong(DeltaWrittenFile::size).sum());
    m.put("numTargetBytesRemoved", plan.removed().stream().mapToLong(TargetFile::size).sum());
    return m;
  }

  private String root(Engine engine) {
    return Table.forPath(engine, merge.table().path()).getPath(engine);
  }

  private static org.apache.hadoop.fs.Path logFile(org.apache.hadoop.fs.Path root, long version) {
    return new org.apache.hadoop.fs.Path(
        new org.apache.hadoop.fs.Path(root, "_delta_log"), String.format("%020d.json", version));
  }

  private static List<String> read(
      LogStore logStore, org.apache.hadoop.fs.Path file, Configuration conf) throws IOException {
    List<String> lines = new ArrayList<>();
    try (io.delta.storage.CloseableIterator<String> it = logStore.read(file, conf)) {
      it.forEachRemaining(lines::add);
    }
    return lines;
  }

  /** {@code delta.checkpointInterval} of the table (default 10; 0 or less: none). */
  private static int checkpointInterval(Map<String, String> properties) {
    try {
      return Integer.parseInt(properties.getOrDefault("delta.checkpointInterval", "10").trim());
    } catch (NumberFormatException e) {
      LOG.warn("delta.checkpointInterval is not a number, using 10: {}", e.toString());
      return 10;
    }
  }

  /**
   * Writes a checkpoint every {@code interval} versions (the table's {@code
   * delta.checkpointInterval} as the batch was planned).
   */
  private void checkpointIfDue(Engine engine, long version, int interval) {
    if (interval <= 0 || version % interval != 0) {
      return;
    }
    DeltaTable table = merge.table();
    try {
      Table.forPath(engine, table.path()).checkpoint(engine, version);
      table.deleteExpiredLogFiles();
    } catch (Exception e) {
      LOG.warn(
          "{}: checkpoint after MERGE version {} failed (the commit stands): {}",
          table.path(),
          version,
          e.toString());
    }
  }

  @Override
  public String toString() {
    return "DeltaMergeCommit[" + merge + ", appId=" + appId + "]";
  }
}
