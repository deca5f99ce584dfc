package io.lakestream.connectors.delta;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TransactionBuilder;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableAlreadyExistsException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.hook.PostCommitHook;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
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
public final class DeltaTable implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaTable.class);

  /** The engine name recorded in each commit's commitInfo. */
  static final String ENGINE_INFO = "lakestream";

  private final String path;
  private final TreeMap<String, String> hadoopConf;
  private transient volatile Engine engine;

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

  /** The Kernel engine of this JVM for this table's settings. */
  public Engine engine() {
    Engine e = engine;
    if (e == null) {
      synchronized (this) {
        if (engine == null) {
          Configuration conf = new Configuration();
          hadoopConf.forEach(conf::set);
          LogStoreSelection.applyTo(conf); // put-if-absent commits on s3a://
          engine = DefaultEngine.create(conf);
        }
        e = engine;
      }
    }
    return e;
  }

  Table kernelTable() {
    return Table.forPath(engine(), path);
  }

  /**
   * The latest snapshot, or empty if there is no table at the path yet.
   *
   * @throws DeltaTableException if the log cannot be read
   */
  public Optional<Snapshot> latestSnapshot() throws DeltaTableException {
    try {
      return Optional.of(kernelTable().getLatestSnapshot(engine()));
    } catch (TableNotFoundException e) {
      return Optional.empty();
    } catch (KernelException | java.io.UncheckedIOException e) {
      throw new DeltaTableException("Cannot read the Delta log of " + path + ": " + e, e);
    }
  }

  /**
   * Creates the table with {@code schema}'s columns, partitioning and properties if there is none
   * at the path; otherwise checks that the existing table has exactly the declared columns (names,
   * types, nullability, order) and partition columns. Table properties of an existing table are
   * left as they are. Safe to call concurrently: if another writer creates the table first, its
   * table is checked instead.
   *
   * @return the table version the check or creation saw
   * @throws DeltaSchemaMismatchException if an existing table differs from the declaration
   * @throws DeltaTableException if the table cannot be read or created
   */
  public long ensureExists(DeltaTableSchema schema) throws DeltaTableException {
    Engine e = engine();
    KernelException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      Optional<Snapshot> existing = latestSnapshot();
      if (existing.isPresent()) {
        checkMatches(schema, existing.get());
        return existing.get().getVersion();
      }
      try {
        TransactionBuilder builder =
            kernelTable()
                .createTransactionBuilder(e, ENGINE_INFO, Operation.CREATE_TABLE)
                .withSchema(e, schema.toStructType());
        if (!schema.partitionColumns().isEmpty()) {
          builder = builder.withPartitionColumns(e, schema.partitionColumns());
        }
        if (!schema.properties().isEmpty()) {
          builder = builder.withTableProperties(e, schema.properties());
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
            "Cannot create Delta table at " + path + " with " + schema + ": " + failed.getMessage(),
            failed);
      }
    }
    throw new DeltaTableException("Could not create or read the Delta table at " + path, last);
  }

  /**
   * Checks that {@code snapshot} has exactly the declared columns and partitioning.
   *
   * @throws DeltaSchemaMismatchException if it does not
   */
  void checkMatches(DeltaTableSchema schema, Snapshot snapshot)
      throws DeltaSchemaMismatchException {
    String actual = describe(snapshot.getSchema(), snapshot.getPartitionColumnNames());
    String declared = describe(schema.toStructType(), schema.partitionColumns());
    if (!actual.equals(declared)) {
      throw new DeltaSchemaMismatchException(
          "The Delta table at "
              + path
              + " (version "
              + snapshot.getVersion()
              + ") has "
              + actual
              + ", but the writer declares "
              + declared
              + ". Change the declared columns to match the table, or write to a new table path"
              + " (existing schemas are not changed).");
    }
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

  @Override
  public String toString() {
    return "DeltaTable[" + path + "]";
  }
}
