package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.utils.CloseableIterator;
import io.lakestream.api.annotation.Internal;
import java.util.EnumSet;
import java.util.Set;

/**
 * The actions of a range of commits, through Kernel's public {@link TableManager#loadCommitRange}.
 * Wraps {@code DeltaLogActionUtils.DeltaAction}: the public {@code CommitRange.getCommitActions}
 * takes a set of that internal enum to say which actions to read, and the batches it returns name
 * their columns by its {@code colName}; {@link Action} stands for it here.
 */
@Internal
public final class KernelCommitRange {
  private KernelCommitRange() {}

  /** A kind of log action to read. */
  public enum Action {
    ADD(DeltaAction.ADD),
    REMOVE(DeltaAction.REMOVE),
    CDC(DeltaAction.CDC),
    METADATA(DeltaAction.METADATA);

    private final DeltaAction kernel;

    Action(DeltaAction kernel) {
      this.kernel = kernel;
    }

    /**
     * This action's column of a batch of {@link CommitActions#getActions()} (null where absent).
     */
    public ColumnVector column(ColumnarBatch batch) {
      return batch.getColumnVector(batch.getSchema().indexOf(kernel.colName));
    }
  }

  /**
   * The commits of versions {@code from..to} (inclusive) of the table at {@code tableRoot}, each
   * with the actions of the kinds {@code actions}; the caller closes the iterator and each commit.
   *
   * @throws io.delta.kernel.exceptions.KernelException (unchecked) if a version is not in the log
   */
  public static CloseableIterator<CommitActions> commits(
      Engine engine, String tableRoot, long from, long to, Set<Action> actions) {
    Set<DeltaAction> kernelActions = EnumSet.noneOf(DeltaAction.class);
    actions.forEach(a -> kernelActions.add(a.kernel));
    return TableManager.loadCommitRange(tableRoot, CommitBoundary.atVersion(from))
        .withEndBoundary(CommitBoundary.atVersion(to))
        .build(engine)
        .getCommitActions(engine, kernelActions);
  }
}
