package io.lakestream.connectors.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.delta.kernel.transaction.UpdateTableTransactionBuilder;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Commits one epoch of output mode complete: ONE Delta version that removes every data file of the
 * table (as of the snapshot it read) and adds the epoch's files, all with {@code dataChange=true},
 * and carries {@code txn(appId, epoch)} like {@link DeltaAppendCommit}, so a replayed epoch is
 * skipped ({@link EpochCommitOutcome.Status#ALREADY_COMMITTED}). Readers of any version see either
 * the previous epoch's result or this one's, never a mix.
 *
 * <p>The removes are generated from the snapshot's file list (Kernel's scan files, turned into
 * remove actions the way Kernel's own REPLACE TABLE does). The transaction is built on that very
 * snapshot with Kernel's conflict rebasing turned off: if any other commit lands first (for example
 * another writer's append, whose files this version would otherwise leave in the table), the
 * attempt fails and is redone from a fresh snapshot, so the removes always cover every file present
 * when the version is written. After {@code maxAttempts} lost races, {@link
 * DeltaCommitConflictException}.
 *
 * <p>Refused, with a {@link DeltaTableException} naming the property: tables with {@code
 * delta.enableChangeDataFeed=true} (Delta Kernel 4.4 does not commit removes and adds with
 * dataChange=true together on such tables, and writing the change data files is not done here) and
 * tables with {@code delta.appendOnly=true}.
 *
 * <p>An epoch without files commits nothing ({@code EMPTY}) and leaves the previous result in
 * place: the sink cannot tell an empty result from an epoch in which the query emitted nothing.
 */
@Internal
public final class DeltaCompleteCommit extends DeltaEpochCommit {
  private static final long serialVersionUID = 1L;

  /**
   * @param table the table to commit to
   * @param schema the table's declaration (created if missing, checked otherwise, in {@link #open})
   * @param appId the stable id of the writing application (for lakestream, bound to the query id)
   * @param maxAttempts how many times a commit is attempted when other commits keep winning (>= 1)
   * @param mergeSchema whether {@link #open()} may add new nullable declared columns to the table
   */
  public DeltaCompleteCommit(
      DeltaTable table,
      DeltaTableSchema schema,
      String appId,
      int maxAttempts,
      boolean mergeSchema) {
    super(table, schema, appId, maxAttempts, mergeSchema);
  }

  /** With {@link DeltaAppendCommit#DEFAULT_MAX_ATTEMPTS} and without mergeSchema. */
  public DeltaCompleteCommit(DeltaTable table, DeltaTableSchema schema, String appId) {
    this(table, schema, appId, DeltaAppendCommit.DEFAULT_MAX_ATTEMPTS, false);
  }

  @Override
  public void open() {
    super.open();
    Optional<Snapshot> snapshot = table.latestSnapshot();
    if (snapshot.isPresent()) {
      checkTable(snapshot.get());
    }
  }

  /**
   * @throws DeltaTableException if the table's properties rule out replacing its contents
   */
  @Override
  void checkTable(Snapshot snapshot) {
    refuseIfSet(
        snapshot,
        "delta.enableChangeDataFeed",
        "Delta Kernel 4.4 cannot commit the"
            + " removes and adds of a complete-mode epoch in one version of a table with change data"
            + " feed. Use output mode append, or a table without change data feed");
    refuseIfSet(
        snapshot,
        "delta.appendOnly",
        "the table only accepts appends. Use output mode"
            + " append, or a table that is not append-only");
  }

  private void refuseIfSet(Snapshot snapshot, String property, String why) {
    String value = snapshot.getTableProperties().get(property);
    if (value != null && value.trim().toLowerCase(Locale.ROOT).equals("true")) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_UNSUPPORTED_FEATURE,
          "Output mode complete cannot write to the Delta table at "
              + table.path()
              + ": it has "
              + property
              + "=true and "
              + why
              + ".");
    }
  }

  /** No rebasing in Kernel: a lost race is redone here from a fresh snapshot with new removes. */
  @Override
  UpdateTableTransactionBuilder configure(UpdateTableTransactionBuilder builder) {
    return builder.withMaxRetries(0);
  }

  @Override
  boolean isConflict(KernelException failure) {
    return failure instanceof ConcurrentWriteException
        || failure instanceof MaxCommitRetryLimitReachedException;
  }

  @Override
  String outputMode() {
    return "Complete";
  }

  /** A remove (dataChange=true) for every file of {@code snapshot}. */
  @Override
  List<Row> otherActions(Engine engine, Snapshot snapshot) throws IOException {
    long now = System.currentTimeMillis();
    List<Row> removes = new ArrayList<>();
    KernelScanFile.forEach(
        engine,
        snapshot.getScanBuilder().build(),
        false,
        file -> removes.add(file.removeAction(true, now)));
    return removes;
  }

  @Override
  public String toString() {
    return "DeltaCompleteCommit[" + table.path() + ", appId=" + appId + "]";
  }
}
