package io.lakestream.connectors.delta;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the files of one epoch as ONE Delta table version, exactly once per {@code (appId,
 * epoch)}: the commit carries a {@code txn} action {@code (appId, epoch)}, and before committing it
 * reads the table's latest transaction version for {@code appId}; if that is {@code >= epoch}, the
 * epoch is already in the table and nothing is written ({@link
 * EpochCommitOutcome.Status#ALREADY_COMMITTED}). Epochs must be committed in increasing order per
 * appId (as {@link EpochCommitAction} promises).
 *
 * <p>Concurrent blind appends by other writers are reconciled by Delta Kernel (it rebases the
 * commit on the winner); if Kernel still reports a conflict, the whole commit is retried from a
 * fresh snapshot up to {@code maxAttempts} times, then {@link DeltaCommitConflictException} is
 * thrown. After a commit, the post-commit hooks Kernel returns are run (a checkpoint every {@code
 * delta.checkpointInterval} versions); their failures are logged, not thrown.
 *
 * <p>The outcome's {@code detail} is {@code "version=N"} (the committed or the already-committed
 * table version's latest, for a replay). An empty epoch commits nothing ({@code EMPTY}).
 */
public final class DeltaAppendCommit implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaAppendCommit.class);

  /** Default bound on whole-commit retries after Kernel-reported conflicts. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final String appId;
  private final int maxAttempts;

  /**
   * @param table the table to commit to
   * @param schema the table's declaration (created if missing, checked otherwise, in {@link #open})
   * @param appId the stable id of the writing application (for lakestream, bound to the query id)
   */
  public DeltaAppendCommit(DeltaTable table, DeltaTableSchema schema, String appId) {
    this(table, schema, appId, DEFAULT_MAX_ATTEMPTS);
  }

  /**
   * @param maxAttempts how many times a commit is attempted when conflicts keep occurring (>= 1)
   */
  public DeltaAppendCommit(
      DeltaTable table, DeltaTableSchema schema, String appId, int maxAttempts) {
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
  }

  public String appId() {
    return appId;
  }

  /** Creates the table if missing, or checks its schema. */
  @Override
  public void open() throws IOException {
    table.ensureExists(schema);
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
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files) throws IOException {
    if (files.isEmpty()) {
      return EpochCommitOutcome.empty(epoch);
    }
    long rows = files.stream().mapToLong(DeltaWrittenFile::numRecords).sum();
    long bytes = files.stream().mapToLong(DeltaWrittenFile::size).sum();
    Engine engine = table.engine();
    KernelException lastConflict = null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      Snapshot snapshot =
          table
              .latestSnapshot()
              .orElseThrow(
                  () ->
                      new DeltaTableException(
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
      try {
        TransactionCommitResult result = commitOnce(engine, epoch, files);
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
      } catch (ConcurrentWriteException conflict) {
        // Includes ConcurrentTransactionException (same appId committed meanwhile): the next
        // round's txn check then reports ALREADY_COMMITTED.
        lastConflict = conflict;
        LOG.info(
            "{}: epoch {} attempt {}/{} lost a conflict, retrying: {}",
            table.path(),
            epoch,
            attempt,
            maxAttempts,
            conflict.getMessage());
      } catch (KernelException | UncheckedIOException e) {
        throw new DeltaTableException(
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

  private TransactionCommitResult commitOnce(
      Engine engine, long epoch, List<DeltaWrittenFile> files) throws ConcurrentWriteException {
    Transaction txn =
        table
            .kernelTable()
            .createTransactionBuilder(engine, DeltaTable.ENGINE_INFO, Operation.STREAMING_UPDATE)
            .withTransactionId(engine, appId, epoch)
            .build(engine);
    Row state = txn.getTransactionState(engine);
    StructType structType = schema.toStructType();
    Map<Map<String, String>, List<DataFileStatus>> byPartition = new LinkedHashMap<>();
    for (DeltaWrittenFile f : files) {
      Optional<DataFileStatistics> stats =
          f.statsJson().isEmpty()
              ? Optional.empty()
              : DataFileStatistics.deserializeFromJson(f.statsJson(), structType);
      byPartition
          .computeIfAbsent(f.partitionValues(), k -> new ArrayList<>())
          .add(new DataFileStatus(f.path(), f.size(), f.modificationTime(), stats));
    }
    List<Row> actions = new ArrayList<>();
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

  @Override
  public String toString() {
    return "DeltaAppendCommit[" + table.path() + ", appId=" + appId + "]";
  }
}
