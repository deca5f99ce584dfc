package io.lakestream.connectors.delta.sink;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/** A Delta append commit with a fault injected around it by the test. */
final class InterceptedCommit implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;

  /** Runs the commit ({@code delegate}) and whatever the test adds before or after it. */
  @FunctionalInterface
  interface Interceptor extends Serializable {
    EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files, DeltaAppendCommit delegate)
        throws IOException;
  }

  private final DeltaAppendCommit delegate;
  private final Interceptor interceptor;

  InterceptedCommit(DeltaAppendCommit delegate, Interceptor interceptor) {
    this.delegate = delegate;
    this.interceptor = interceptor;
  }

  @Override
  public void open() throws IOException {
    delegate.open();
  }

  @Override
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files) throws IOException {
    return interceptor.commit(epoch, files, delegate);
  }
}
