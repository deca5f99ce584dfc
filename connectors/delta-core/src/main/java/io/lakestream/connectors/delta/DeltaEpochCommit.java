package io.lakestream.connectors.delta;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.transaction.UpdateTableTransactionBuilder;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.lakestream.connectors.delta.kernel.KernelCommitInfoCommitter;
import io.lakestream.connectors.delta.kernel.KernelStateRows;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part every epoch commit shares: ONE Delta version per epoch, exactly once per {@code (appId,
 * epoch)} through a {@code txn} action, built on the snapshot the txn and schema checks read (so
 * Kernel's conflict detection covers everything committed after it), retried from a fresh snapshot
 * when it loses a conflict, then the post-commit hooks (log checkpoints). Subclasses add what the
 * version does besides adding the epoch's files.
 */
abstract class DeltaEpochCommit implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaEpochCommit.class);

  final DeltaTable table;
  final DeltaTableSchema schema;
  final String appId;
  final int maxAttempts;
  final boolean mergeSchema;

  DeltaEpochCommit(
      DeltaTable table,
      DeltaTableSchema schema,
      String appId,
      int maxAttempts,
      boolean mergeSchema) {
    this.table = Objects.requireNonNull(table, "table");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.appId = Objects.requireNonNull(appId, "appId");
    if (appId.isBlank()) {
      throw new IllegalArgumentException("appId must not be blank");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
    this.mergeSchema = mergeSchema;
  }

  public String appId() {
    return appId;
  }

  /** Creates the table if missing, or checks (and with mergeSchema, evolves) its schema. */
  @Override
  public void open() {
    table.ensureExists(schema, mergeSchema);
  }

  /** Checks the table before each attempt; throws if this kind of commit cannot go to it. */
  void checkTable(Snapshot snapshot) {}

  /** Lets the subclass tune the transaction (for example, how Kernel retries conflicts). */
  UpdateTableTransactionBuilder configure(UpdateTableTransactionBuilder builder) {
    return builder;
  }

  /** The output mode the commits record, as Spark's streaming writes do ({@code Append}). */
  String outputMode() {
    return "Append";
  }

  /** Actions committed besides the adds of the epoch's files (for example, removes). */
  List<Row> otherActions(Engine engine, Snapshot snapshot) throws IOException {
    return List.of();
  }

  /** Whether {@code failure} means another commit won and a retry from a new snapshot may work. */
  boolean isConflict(KernelException failure) {
    return failure instanceof ConcurrentWriteException;
  }

  /**
   * Commits {@code files} as one version with txn {@code (appId, epoch)}, unless already done.
   *
   * @throws DeltaSchemaMismatchException if the table's schema no longer matches
   * @throws DeltaCommitConflictException if conflicts persisted for {@code maxAttempts} attempts
   * @throws DeltaTableException for other Kernel failures (the epoch was not committed, or its
   *     state is unknown and a retry will find out through the txn check)
   */
  @Override
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files) {
    if (files.isEmpty()) {
      return EpochCommitOutcome.empty(epoch);
    }
    try {
      return commitWithRetries(epoch, files);
    } catch (KernelEngineException e) {
      throw KernelFailures.describe(
          table,
          "Cannot commit epoch " + epoch + " of app " + appId + " to",
          e,
          DeltaErrorClass.DELTA_TABLE_WRITE_FAILED);
    }
  }

  private EpochCommitOutcome commitWithRetries(long epoch, List<DeltaWrittenFile> files) {
    long rows = files.stream().mapToLong(DeltaWrittenFile::numRecords).sum();
    long bytes = files.stream().mapToLong(DeltaWrittenFile::size).sum();
    Engine engine = table.engine();
    KernelException lastConflict = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      AtomicLong removedFiles = new AtomicLong();
      Snapshot snapshot =
          table
              .latestSnapshot(committer(epoch, rows, files.size(), bytes, removedFiles))
              .orElseThrow(
                  () ->
                      new DeltaTableException(
                          DeltaErrorClass.DELTA_TABLE_NOT_FOUND,
                          "No Delta table at "
                              + table.path()
                              + ": it must exist before committing (open() creates it)"));
      Optional<Long> done = snapshot.getLatestTransactionVersion(engine, appId);
      if (done.isPresent() && done.get() >= epoch) {
        LOG.info(
            "{}: epoch {} of app {} is already committed (txn version {}), skipping",
            table.path(),
            epoch,
            appId,
            done.get());
        return new EpochCommitOutcome(
            epoch,
            EpochCommitOutcome.Status.ALREADY_COMMITTED,
            rows,
            files.size(),
            bytes,
            "version=" + snapshot.getVersion());
      }
      table.checkMatches(schema, snapshot);
      checkTable(snapshot);
      try {
        TransactionCommitResult result = commitOnce(engine, snapshot, epoch, files, removedFiles);
        table.runPostCommitHooks(result);
        LOG.debug(
            "{}: committed epoch {} of app {} as version {} ({} files, {} rows)",
            table.path(),
            epoch,
            appId,
            result.getVersion(),
            files.size(),
            rows);
        return new EpochCommitOutcome(
            epoch,
            EpochCommitOutcome.Status.COMMITTED,
            rows,
            files.size(),
            bytes,
            "version=" + result.getVersion());
      } catch (KernelException | UncheckedIOException e) {
        if (!(e instanceof KernelException k) || !isConflict(k)) {
          throw new DeltaTableException(
              DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
              "Cannot commit epoch "
                  + epoch
                  + " of app "
                  + appId
                  + " to "
                  + table.path()
                  + ": "
                  + e.getMessage(),
              e);
        }
        // Includes ConcurrentTransactionException (same appId committed meanwhile): the next
        // round's txn check then reports ALREADY_COMMITTED.
        lastConflict = k;
        LOG.info(
            "{}: epoch {} attempt {}/{} lost a conflict, retrying: {}",
            table.path(),
            epoch,
            attempt,
            maxAttempts,
            k.getMessage());
      }
    }
    throw new DeltaCommitConflictException(
        "Epoch "
            + epoch
            + " of app "
            + appId
            + " could not be committed to "
            + table.path()
            + " after "
            + maxAttempts
            + " attempts because of concurrent commits; nothing was committed. Check for"
            + " writers that change the table's metadata, then restart the query.",
        lastConflict);
  }

  /**
   * Kernel's committer, recording what Spark's streaming writes record in {@code commitInfo}:
   * {@code operationParameters} {@code outputMode}, {@code queryId} (Spark's txn app id is its
   * query id, as the app id is here) and {@code epochId}, and the output metrics.
   */
  private KernelCommitInfoCommitter committer(
      long epoch, long rows, int addedFiles, long bytes, AtomicLong removedFiles) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("outputMode", outputMode());
    parameters.put("queryId", appId);
    parameters.put("epochId", Long.toString(epoch));
    return new KernelCommitInfoCommitter(
        parameters,
        () ->
            Map.of(
                "numAddedFiles", Integer.toString(addedFiles),
                "numRemovedFiles", Long.toString(removedFiles.get()),
                "numOutputRows", Long.toString(rows),
                "numOutputBytes", Long.toString(bytes)));
  }

  private TransactionCommitResult commitOnce(
      Engine engine,
      Snapshot snapshot,
      long epoch,
      List<DeltaWrittenFile> files,
      AtomicLong removedFiles)
      throws ConcurrentWriteException {
    Transaction txn =
        configure(
                snapshot
                    .buildUpdateTableTransaction(DeltaTable.ENGINE_INFO, Operation.STREAMING_UPDATE)
                    .withTransactionId(appId, epoch))
            .build(engine);
    Row state = txn.getTransactionState(engine);
    // Statistics are keyed by physical column names (they differ under column mapping).
    StructType physicalSchema = KernelStateRows.physicalSchema(state);
    Map<Map<String, String>, List<DataFileStatus>> byPartition = new LinkedHashMap<>();
    for (DeltaWrittenFile f : files) {
      Optional<DataFileStatistics> stats =
          f.statsJson().isEmpty()
              ? Optional.empty()
              : DataFileStatistics.deserializeFromJson(f.statsJson(), physicalSchema);
      byPartition
          .computeIfAbsent(f.partitionValues(), k -> new ArrayList<>())
          .add(new DataFileStatus(f.path(), f.size(), f.modificationTime(), stats));
    }
    List<Row> actions = new ArrayList<>();
    try {
      actions.addAll(otherActions(engine, snapshot));
      removedFiles.set(actions.size());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Map.Entry<Map<String, String>, List<DataFileStatus>> group : byPartition.entrySet()) {
      Map<String, Literal> literals = new LinkedHashMap<>();
      group
          .getKey()
          .forEach(
              (name, text) -> {
                int index = schema.indexOf(name);
                if (index < 0) {
                  throw new IllegalArgumentException(
                      "File partition column '" + name + "' is not a column of " + table.path());
                }
                literals.put(
                    name, DeltaValues.toPartitionLiteral(schema.columns().get(index).type(), text));
              });
      try (CloseableIterator<Row> rows =
          Transaction.generateAppendActions(
              engine,
              state,
              DeltaTableWriter.iterator(group.getValue()),
              Transaction.getWriteContext(engine, state, literals))) {
        rows.forEachRemaining(actions::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return txn.commit(
        engine, CloseableIterable.inMemoryIterable(DeltaTableWriter.iterator(actions)));
  }
}
