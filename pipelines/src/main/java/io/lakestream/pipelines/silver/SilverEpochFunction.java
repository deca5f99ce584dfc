package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.sink.EpochFunction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The silver job's foreachBatch function ({@code upsert_to_silver(batch_df, batch_id)} of the Spark
 * original): splits the epoch's rows with {@link OrderValidation} (rows rejected upstream keep
 * their reason), MERGEs the valid ones into the silver table and appends the rejects to the
 * quarantine table.
 *
 * <p>The MERGE is {@code ON s.order_id = t.order_id WHEN MATCHED AND s.order_ts > t.order_ts THEN
 * UPDATE SET * WHEN NOT MATCHED THEN INSERT *}; several rows of one order in an epoch resolve to
 * the one with the greatest {@code order_ts} (ties broken by the rows' values, so a replay gives
 * the same result). It commits one version with {@code txn(appId, epoch)}; the quarantine append
 * commits one version with {@code txn(appId + "-dlq", epoch)}. Either is skipped when the table
 * already holds the epoch, so an epoch replayed after any failure (also between the two commits)
 * lands exactly once in each table.
 *
 * <p>Failures propagate and are never retried here: the query restores its last checkpoint and runs
 * the epoch again whole (as Spark's docs require: "do not catch and retry exceptions locally"). A
 * MERGE conflicting with a concurrent writer ({@link
 * io.lakestream.connectors.delta.DeltaCommitConflictException}) fails the epoch the same way; the
 * replay plans it on the new table version.
 */
@Internal
public final class SilverEpochFunction implements EpochFunction {
  private static final long serialVersionUID = 1L;

  /** Suffix of the quarantine table's transaction app id. */
  public static final String DLQ_SUFFIX = "-dlq";

  private final DeltaTable silver;
  private final DeltaMergeCommit merge;
  private final DeltaTable quarantine;
  private final String quarantineAppId;
  private transient boolean tablesChecked;

  /**
   * @param silver the silver table
   * @param quarantine the quarantine table
   * @param appId the query's transaction app id (new for a new checkpoint location)
   */
  public SilverEpochFunction(DeltaTable silver, DeltaTable quarantine, String appId) {
    Objects.requireNonNull(appId, "appId");
    this.silver = Objects.requireNonNull(silver, "silver");
    this.merge =
        new DeltaMergeCommit(
            DeltaMerge.into(silver, OrdersSilverTables.SILVER, "order_id")
                .whenMatchedUpdateAll(new NewerOrderTs())
                .whenNotMatchedInsertAll()
                .lastByOrderingColumn("order_ts")
                .build(),
            appId);
    this.quarantine = Objects.requireNonNull(quarantine, "quarantine");
    this.quarantineAppId = appId + DLQ_SUFFIX;
  }

  @Override
  public void call(long epoch, List<Object[]> rows) throws IOException {
    if (!tablesChecked) {
      // Both tables exist from the first epoch on, also when it has no reject (readers need them).
      silver.ensureExists(OrdersSilverTables.SILVER);
      quarantine.ensureExists(OrdersSilverTables.QUARANTINE);
      tablesChecked = true;
    }
    List<Object[]> valid = new ArrayList<>();
    List<Object[]> rejects = new ArrayList<>();
    for (Object[] staged : rows) {
      Rejection rejection = OrdersSilverTables.upstreamRejection(staged);
      if (rejection == null) {
        rejection =
            OrderValidation.check(
                    OrdersSilverTables.orderId(staged), OrdersSilverTables.amount(staged))
                .orElse(null);
      }
      if (rejection == null) {
        valid.add(OrdersSilverTables.silverRow(staged));
      } else {
        rejects.add(OrdersSilverTables.quarantineRow(staged, rejection, epoch));
      }
    }
    merge.commit(epoch, valid);
    if (!rejects.isEmpty()) {
      DeltaAppendCommit append =
          new DeltaAppendCommit(quarantine, OrdersSilverTables.QUARANTINE, quarantineAppId);
      append.commit(
          epoch, new DeltaTableWriter(quarantine, OrdersSilverTables.QUARANTINE).write(rejects));
    }
  }

  @Override
  public String toString() {
    return "SilverEpochFunction[" + merge + ", quarantine=" + quarantine.path() + "]";
  }
}
