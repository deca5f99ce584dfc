package io.lakestream.connectors.delta.maintenance;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Databricks' auto-compaction in a Delta sink's committer ({@link PartitionCompaction}): after an
 * epoch's commit, the partitions the epoch wrote are compacted once small files pile up there. On
 * when the sink asks for it (its option {@code autoCompact}), or for a table with {@code
 * delta.autoOptimize.autoCompact} = {@code true} or {@code auto} when the query starts.
 *
 * <p>The epoch's commit comes first and always stands: a compaction that fails, or loses to another
 * writer's commit, is logged and left for a later epoch; it never fails the query. A replayed epoch
 * (already committed) compacts nothing.
 */
@Internal
public final class AutoCompaction implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(AutoCompaction.class);

  /** Small files in a partition before it is compacted (Databricks' default). */
  public static final int MIN_NUM_FILES = PartitionCompaction.MIN_NUM_FILES;

  /** The table property that turns it on. */
  public static final String PROPERTY = PartitionCompaction.PROPERTY;

  private final EpochCommitAction<DeltaWrittenFile> commit;
  private final PartitionCompaction compaction;

  private AutoCompaction(
      EpochCommitAction<DeltaWrittenFile> commit, PartitionCompaction compaction) {
    this.commit = commit;
    this.compaction = compaction;
  }

  /**
   * {@code commit}, compacting after each epoch if {@code requested} or the table's properties (as
   * the query starts) turn auto-compaction on; else {@code commit} itself.
   */
  public static EpochCommitAction<DeltaWrittenFile> ifEnabled(
      EpochCommitAction<DeltaWrittenFile> commit, DeltaTable table, boolean requested) {
    Map<String, String> properties =
        table.latestSnapshot().map(s -> s.getTableProperties()).orElse(Map.of());
    Optional<PartitionCompaction> compaction = PartitionCompaction.of(table, properties, requested);
    compaction.ifPresent(
        c ->
            LOG.info(
                "{}: auto-compaction on (option {}, {}={})",
                table.path(),
                requested,
                PROPERTY,
                properties.getOrDefault(PROPERTY, "false")));
    return compaction
        .<EpochCommitAction<DeltaWrittenFile>>map(c -> new AutoCompaction(commit, c))
        .orElse(commit);
  }

  @Override
  public void open() throws IOException {
    commit.open();
  }

  @Override
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> results) throws IOException {
    EpochCommitOutcome outcome = commit.commit(epoch, results);
    if (outcome.status() == EpochCommitOutcome.Status.COMMITTED) {
      compaction.after("epoch " + epoch, results);
    }
    return outcome;
  }

  @Override
  public void close() throws IOException {
    commit.close();
  }
}
