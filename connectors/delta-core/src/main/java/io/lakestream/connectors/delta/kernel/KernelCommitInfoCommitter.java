package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.commit.CommitFailedException;
import io.delta.kernel.commit.CommitMetadata;
import io.delta.kernel.commit.CommitResponse;
import io.delta.kernel.commit.Committer;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.CommitInfo;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.commit.DefaultFileSystemManagedTableOnlyCommitter;
import io.delta.kernel.utils.CloseableIterator;
import io.lakestream.api.annotation.Internal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Kernel's file-system committer with the {@code commitInfo} Spark users read in {@code DESCRIBE
 * HISTORY}: Kernel 4.4 records no {@code operationParameters} or {@code operationMetrics} for an
 * update transaction and offers no way to set them, so this committer writes every action Kernel
 * hands it unchanged but the {@code commitInfo}, which gets the given parameters and metrics and
 * keeps everything else (timestamp, in-commit timestamp, operation, txn id). The commit itself
 * (put-if-absent, conflicts) is Kernel's own, so it fails exactly as Kernel's would.
 */
@Internal
public final class KernelCommitInfoCommitter implements Committer {
  private final Map<String, String> operationParameters;
  private final Supplier<Map<String, String>> operationMetrics;

  /**
   * A committer recording {@code operationParameters} and the {@code operationMetrics} known when
   * the commit is written (Spark writes both as string maps) in the commits it writes.
   */
  public KernelCommitInfoCommitter(
      Map<String, String> operationParameters, Supplier<Map<String, String>> operationMetrics) {
    this.operationParameters = new LinkedHashMap<>(operationParameters);
    this.operationMetrics = operationMetrics;
  }

  @Override
  public CommitResponse commit(
      Engine engine, CloseableIterator<Row> actions, CommitMetadata metadata)
      throws CommitFailedException {
    CommitInfo kernels = metadata.getCommitInfo();
    Row commitInfo =
        SingleAction.createCommitInfoSingleAction(
            new CommitInfo(
                    kernels.getInCommitTimestamp(),
                    kernels.getTimestamp(),
                    kernels.getEngineInfo(),
                    kernels.getOperation(),
                    operationParameters,
                    kernels.getIsBlindAppend(),
                    kernels.getTxnId(),
                    new LinkedHashMap<>(operationMetrics.get()))
                .toRow());
    return DefaultFileSystemManagedTableOnlyCommitter.INSTANCE.commit(
        engine,
        actions.map(a -> a.isNullAt(SingleAction.COMMIT_INFO_ORDINAL) ? a : commitInfo),
        metadata);
  }
}
