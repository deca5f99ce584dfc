package io.lakestream.connectors.delta;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TransactionBuilder;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableAlreadyExistsException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.hook.PostCommitHook;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.kernel.KernelLogCleanup;
import io.lakestream.connectors.delta.logstore.LogStoreSelection;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Delta table at a path, accessed through Delta Kernel's default engine (Hadoop file systems:
 * local, {@code s3a://}, ...). Serializable: it carries the path and Hadoop settings, and creates
 * its engine lazily on first use in each JVM, so it can be shipped to Flink tasks.
 *
 * <p>Thread-safe for concurrent reads and commits (Kernel's engine is); Kernel failures are
 * rethrown as {@link DeltaTableException} with the table path in the message.
 */
@PublicEvolving
public final class DeltaTable implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaTable.class);

  /** The engine name recorded in each commit's commitInfo. */
  static final String ENGINE_INFO = "lakestream";

  private final String path;
  private final TreeMap<String, String> hadoopConf;
  private transient volatile Engine engine;
  private transient volatile Configuration loadedConf; // copied by hadoopConfiguration()

  private DeltaTable(String path, Map<String, String> hadoopConf) {
    this.path = Objects.requireNonNull(path, "path");
    this.hadoopConf = new TreeMap<>(hadoopConf);
  }

  /** The table at {@code path} (it need not exist yet), with default Hadoop settings. */
  public static DeltaTable forPath(String path) {
    return new DeltaTable(path, Map.of());
  }

  /**
   * The table at {@code path} with extra Hadoop settings (e.g. {@code fs.s3a.endpoint}) applied on
   * top of the defaults.
   */
  public static DeltaTable forPath(String path, Map<String, String> hadoopConf) {
    return new DeltaTable(path, hadoopConf);
  }

  public String path() {
    return path;
  }

  /** This table with one more Hadoop setting (e.g. a writer's target file size). */
  public DeltaTable withHadoopSetting(String key, String value) {
    TreeMap<String, String> conf = new TreeMap<>(hadoopConf);
    conf.put(key, value);
    return new DeltaTable(path, conf);
  }

  /** The Kernel engine of this JVM for this table's settings. */
  public Engine engine() {
    Engine e = engine;
    if (e == null) {
      synchronized (this) {
        if (engine == null) {
          engine = DefaultEngine.create(hadoopConfiguration());
        }
        e = engine;
      }
    }
    return e;
  }

  /**
   * A new Hadoop configuration with this table's settings and the log stores lakestream selects
   * (put-if-absent commits on {@code s3a://}), as the engine uses it; for code that writes commit
   * files itself through the same log store. Each call returns its own copy (changing it changes
   * nothing else) of settings loaded once per table object and JVM.
   */
  public Configuration hadoopConfiguration() {
    Configuration loaded = loadedConf;
    if (loaded == null) {
      loaded = new Configuration();
      hadoopConf.forEach(loaded::set);
      LogStoreSelection.applyTo(loaded); // put-if-absent commits on s3a://
      loadedConf = loaded;
    }
    // A copy of the loaded settings: a new Configuration would parse core-default.xml and
    // core-site.xml again (~2 ms of CPU), and a MERGE asks for one per file it writes.
    return new Configuration(loaded);
  }

  /**
   * Refuses to create a table where data files but no log are: the log was deleted (or this is no
   * Delta table), and a new table over them would silently start from nothing.
   */
  private void refuseOrphanedDataFiles() {
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(path);
    try {
      org.apache.hadoop.fs.FileSystem fs = root.getFileSystem(hadoopConfiguration());
      if (!fs.exists(root)) {
        return;
      }
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
          fs.listFiles(root, true);
      while (files.hasNext()) {
        org.apache.hadoop.fs.Path file = files.next().getPath();
        if (file.getName().endsWith(".parquet")) {
          throw new DeltaTableException(
              DeltaErrorClass.DELTA_TABLE_CORRUPT,
              "The Delta table path "
                  + path
                  + " holds data files (such as "
                  + file
                  + ") but no _delta_log: the table's log was deleted, or the path is not a"
                  + " Delta table. A new table there would silently start from nothing: restore"
                  + " _delta_log (e.g. from the bucket's object versions), or write to an empty"
                  + " path.");
        }
      }
    } catch (java.io.IOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CREATE_FAILED, "Cannot list " + path + ": " + e, e);
    }
  }

  /**
   * Refuses to create a table inside another Delta table's directory, unless a directory on the way
   * is hidden ({@code _checkpoints/...}): VACUUM of the outer table would delete the inner table's
   * files as files no version of the outer table needs. An ancestor the credentials may not list is
   * passed by.
   */
  private void refuseNestingInAnotherTable() {
    org.apache.hadoop.fs.Path child = new org.apache.hadoop.fs.Path(path);
    try {
      org.apache.hadoop.fs.FileSystem fs = child.getFileSystem(hadoopConfiguration());
      boolean hidden = false;
      for (org.apache.hadoop.fs.Path parent = child.getParent();
          parent != null && !hidden;
          child = parent, parent = parent.getParent()) {
        hidden = HiddenNames.isHidden(child.getName(), List.of());
        if (!hidden && isTable(fs, parent)) {
          throw new DeltaTableException(
              DeltaErrorClass.DELTA_NESTED_TABLE,
              "Cannot create a Delta table at "
                  + path
                  + ": it is inside the Delta table "
                  + parent
                  + ", whose VACUUM would delete this table's files. Write the table beside it,"
                  + " not inside it (or below a directory whose name starts with '_').");
        }
      }
    } catch (java.io.IOException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CREATE_FAILED, "Cannot list " + path + ": " + e, e);
    }
  }

  private static boolean isTable(org.apache.hadoop.fs.FileSystem fs, org.apache.hadoop.fs.Path dir)
      throws java.io.IOException {
    try {
      return fs.exists(new org.apache.hadoop.fs.Path(dir, "_delta_log"));
    } catch (java.nio.file.AccessDeniedException e) {
      return false; // credentials limited to a prefix below dir: nothing to tell
    }
  }

  Table kernelTable() {
    return Table.forPath(engine(), path);
  }

  /**
   * The latest snapshot, or empty if there is no table at the path yet.
   *
   * @throws DeltaTableException if the log cannot be read
   */
  public Optional<Snapshot> latestSnapshot() {
    try {
      return Optional.of(kernelTable().getLatestSnapshot(engine()));
    } catch (TableNotFoundException e) {
      return Optional.empty();
    } catch (KernelException | KernelEngineException | java.io.UncheckedIOException e) {
      throw KernelFailures.describe(
          this, "Cannot read the Delta log of", e, DeltaErrorClass.DELTA_TABLE_READ_FAILED);
    }
  }

  /**
   * The latest snapshot as {@link #latestSnapshot()} reads it, whose transactions commit through
   * {@code committer}; empty if there is no table at the path yet.
   *
   * @throws DeltaTableException if the log cannot be read
   */
  Optional<Snapshot> latestSnapshot(io.delta.kernel.commit.Committer committer) {
    try {
      String root = engine().getFileSystemClient().resolvePath(path);
      return Optional.of(
          io.delta.kernel.TableManager.loadSnapshot(root).withCommitter(committer).build(engine()));
    } catch (TableNotFoundException e) {
      return Optional.empty();
    } catch (IOException
        | KernelException
        | KernelEngineException
        | java.io.UncheckedIOException e) {
      throw KernelFailures.describe(
          this, "Cannot read the Delta log of", e, DeltaErrorClass.DELTA_TABLE_READ_FAILED);
    }
  }

  /**
   * Creates the table with {@code schema}'s columns, partitioning and properties if there is none
   * at the path; otherwise checks that the existing table has exactly the declared columns (names,
   * types, nullability, order) and partition columns. Same as {@code ensureExists(schema, false)}.
   *
   * @return the table version the check or creation saw
   * @throws DeltaSchemaMismatchException if an existing table differs from the declaration
   * @throws DeltaTableException if the table cannot be read or created
   */
  public long ensureExists(DeltaTableSchema schema) {
    return ensureExists(schema, false);
  }

  /**
   * Creates the table if there is none at the path, or checks the existing one against {@code
   * schema}; with {@code mergeSchema}, an existing table that lacks some declared columns is
   * evolved to the declaration first (see {@link DeltaSchemaChange} for what may change). Table
   * properties of an existing table are otherwise left as they are. Safe to call concurrently: if
   * another writer creates or evolves the table first, its table is checked instead.
   *
   * <p><b>Why column mapping.</b> Delta Kernel 4.4 changes the schema of an existing table only
   * when the table uses column mapping ({@code delta.columnMapping.mode} {@code name} or {@code
   * id}); it refuses otherwise. So with {@code mergeSchema}:
   *
   * <ul>
   *   <li>a table created here gets {@code delta.columnMapping.mode=name} (unless the declaration
   *       sets a mode), so later evolutions need no protocol change;
   *   <li>an existing table without column mapping is switched to {@code name} mode in its own
   *       metadata commit, only when columns actually have to be added (Kernel does not allow the
   *       mode change and the schema change in one commit). Existing columns keep their names as
   *       physical names, so existing data files stay valid. This raises the table protocol to
   *       reader 2 / writer 5: readers without column-mapping support (Delta Lake before 1.2) can
   *       no longer read the table, which is why it happens only when asked for.
   * </ul>
   *
   * New columns are added in a metadata-only commit before any data file that holds them is
   * written, because the data files must be written with the column's physical name, which the
   * evolution assigns. Rows already in the table read NULL in the new columns.
   *
   * @param mergeSchema whether new nullable columns may be added to an existing table (Spark's
   *     {@code mergeSchema} option)
   * @return the table version the check, creation or evolution ended at
   * @throws DeltaSchemaEvolutionException if the difference breaks a {@link DeltaSchemaChange.Rule}
   *     (whatever {@code mergeSchema} says)
   * @throws DeltaSchemaMismatchException if columns would have to be added but {@code mergeSchema}
   *     is false
   * @throws DeltaTableException if the table cannot be read, created or evolved
   */
  public long ensureExists(DeltaTableSchema schema, boolean mergeSchema) {
    Engine e = engine();
    RuntimeException last = null;
    for (int attempt = 0; attempt < 8; attempt++) {
      Optional<Snapshot> existing = latestSnapshot();
      if (existing.isPresent()) {
        Snapshot snapshot = existing.get();
        DeltaSchemaChange change = compare(schema, snapshot);
        if (change.isNone()) {
          return snapshot.getVersion();
        }
        if (!mergeSchema || !change.isAdditive()) {
          throw mismatch(schema, snapshot, change, mergeSchema);
        }
        try {
          evolve(snapshot, change);
        } catch (ConcurrentWriteException raced) {
          last = raced; // another writer changed the table: compare again
        } catch (KernelException | IllegalArgumentException failed) {
          throw new DeltaTableException(
              DeltaErrorClass.DELTA_TABLE_CREATE_FAILED,
              "Cannot add columns "
                  + change.newColumns()
                  + " to the Delta table at "
                  + path
                  + " (mergeSchema=true): "
                  + failed.getMessage(),
              failed);
        }
        continue;
      }
      refuseOrphanedDataFiles();
      refuseNestingInAnotherTable();
      try {
        Map<String, String> properties = new java.util.LinkedHashMap<>(schema.properties());
        if (mergeSchema) {
          properties.putIfAbsent(COLUMN_MAPPING_MODE, "name");
        }
        TransactionBuilder builder =
            kernelTable()
                .createTransactionBuilder(e, ENGINE_INFO, Operation.CREATE_TABLE)
                .withSchema(e, schema.toStructType());
        if (!schema.partitionColumns().isEmpty()) {
          builder = builder.withPartitionColumns(e, schema.partitionColumns());
        }
        if (!properties.isEmpty()) {
          builder = builder.withTableProperties(e, properties);
        }
        TransactionCommitResult result =
            builder.build(e).commit(e, CloseableIterable.emptyIterable());
        LOG.info("Created Delta table {} (version {})", path, result.getVersion());
        runPostCommitHooks(result);
        return result.getVersion();
      } catch (TableAlreadyExistsException | ConcurrentWriteException raced) {
        last = raced; // another writer created it: check its schema on the next round
      } catch (KernelException | IllegalArgumentException failed) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_CREATE_FAILED,
            "Cannot create Delta table at " + path + " with " + schema + ": " + failed.getMessage(),
            failed);
      }
    }
    throw new DeltaTableException(
        DeltaErrorClass.DELTA_TABLE_CREATE_FAILED,
        "Could not create, evolve or read the Delta table at " + path,
        last);
  }

  /** The table property that turns on column mapping. */
  static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  /**
   * One evolution step: turns on column mapping (its own commit) if the table has none, else adds
   * the new columns to the table's schema (keeping the existing fields with their column-mapping
   * metadata).
   */
  private void evolve(Snapshot snapshot, DeltaSchemaChange change) throws ConcurrentWriteException {
    Engine e = engine();
    String mode = snapshot.getTableProperties().getOrDefault(COLUMN_MAPPING_MODE, "none");
    TransactionCommitResult result;
    if ("none".equalsIgnoreCase(mode)) {
      LOG.warn(
          "{}: mergeSchema=true must add columns {}; turning on column mapping (name mode) first,"
              + " which Delta Kernel requires for schema changes. The table protocol becomes reader"
              + " 2 / writer 5.",
          path,
          change.newColumns().stream().map(StructField::getName).toList());
      result =
          snapshot
              .buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE)
              .withTablePropertiesAdded(Map.of(COLUMN_MAPPING_MODE, "name"))
              .build(e)
              .commit(e, CloseableIterable.emptyIterable());
    } else {
      StructType evolved = snapshot.getSchema();
      for (StructField added : change.newColumns()) {
        evolved = evolved.add(added);
      }
      result =
          snapshot
              .buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE)
              .withUpdatedSchema(evolved)
              .build(e)
              .commit(e, CloseableIterable.emptyIterable());
      LOG.info(
          "{}: mergeSchema=true added columns {} (version {})",
          path,
          change.newColumns().stream().map(StructField::getName).toList(),
          result.getVersion());
    }
    runPostCommitHooks(result);
  }

  private static DeltaSchemaChange compare(DeltaTableSchema schema, Snapshot snapshot) {
    return DeltaSchemaChange.between(
        snapshot.getSchema(),
        snapshot.getPartitionColumnNames(),
        schema.toStructType(),
        schema.partitionColumns());
  }

  /**
   * Checks that {@code snapshot} has exactly the declared columns and partitioning.
   *
   * @throws DeltaSchemaMismatchException if it does not
   */
  void checkMatches(DeltaTableSchema schema, Snapshot snapshot) {
    DeltaSchemaChange change = compare(schema, snapshot);
    if (!change.isNone()) {
      throw mismatch(schema, snapshot, change, false);
    }
  }

  private DeltaSchemaMismatchException mismatch(
      DeltaTableSchema schema, Snapshot snapshot, DeltaSchemaChange change, boolean mergeSchema) {
    String base =
        "The Delta table at "
            + path
            + " (version "
            + snapshot.getVersion()
            + ") has "
            + describe(snapshot.getSchema(), snapshot.getPartitionColumnNames())
            + ", but the writer declares "
            + describe(schema.toStructType(), schema.partitionColumns())
            + ". ";
    if (change.isAdditive()) {
      return new DeltaSchemaMismatchException(
          base
              + "The declaration only adds the nullable columns "
              + change.newColumns().stream().map(StructField::getName).toList()
              + ": set the sink option mergeSchema=true to add them to the table, change the"
              + " declared columns to match the table, or write to a new table path.");
    }
    String rule = change.violation().orElse("");
    if (mergeSchema) {
      return new DeltaSchemaEvolutionException(
          base
              + "mergeSchema=true only adds new nullable columns at the end, and this change"
              + " breaks rule "
              + rule
              + ". Change the declared columns, or write to a new table path.");
    }
    return new DeltaSchemaEvolutionException(
        base
            + "The change breaks rule "
            + rule
            + ", which even mergeSchema=true does not allow. Change the declared columns to"
            + " match the table, or write to a new table path (existing schemas are not changed).");
  }

  private static String describe(StructType struct, List<String> partitionColumns) {
    List<String> cols = new ArrayList<>();
    for (StructField f : struct.fields()) {
      cols.add(f.getName() + " " + f.getDataType() + (f.isNullable() ? "" : " NOT NULL"));
    }
    return "columns " + cols + " partitioned by " + partitionColumns;
  }

  /**
   * Runs the hooks Kernel asks for after a commit (checkpoint every {@code
   * delta.checkpointInterval} versions, checksum, log compaction). They only speed up readers: a
   * failure is logged, never thrown, because the commit itself is already durable.
   */
  void runPostCommitHooks(TransactionCommitResult result) {
    for (PostCommitHook hook : result.getPostCommitHooks()) {
      try {
        hook.threadSafeInvoke(engine());
        LOG.debug("{}: ran post-commit hook {} after version {}", path, hook.getType(), result);
        if (hook.getType() == PostCommitHook.PostCommitHookType.CHECKPOINT) {
          deleteExpiredLogFiles();
        }
      } catch (IOException | RuntimeException failed) {
        LOG.warn(
            "{}: post-commit hook {} after version {} failed (the commit stands): {}",
            path,
            hook.getType(),
            result.getVersion(),
            failed.toString());
      }
    }
  }

  /**
   * After a log checkpoint: deletes the log files older than {@code delta.logRetentionDuration}
   * that the oldest checkpoint kept makes unnecessary (see {@link KernelLogCleanup}). Failures are
   * logged, never thrown: the table reads with or without them.
   */
  @Internal
  public void deleteExpiredLogFiles() {
    try {
      Optional<Snapshot> latest = latestSnapshot();
      if (latest.isPresent()) {
        long deleted = KernelLogCleanup.deleteExpired(engine(), latest.get());
        if (deleted > 0) {
          LOG.info("{}: deleted {} expired log files", path, deleted);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: expired log cleanup failed (the table is unaffected): {}", path, e.toString());
    }
  }

  @Override
  public String toString() {
    return "DeltaTable[" + path + "]";
  }
}
