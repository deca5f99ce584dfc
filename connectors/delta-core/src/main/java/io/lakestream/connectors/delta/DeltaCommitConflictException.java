package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * A commit kept losing against concurrent commits that Delta Kernel cannot reconcile with a blind
 * append (for example a metadata or protocol change, or too many concurrent writers), and the retry
 * bound was reached. Nothing was committed for the epoch; the data files stay unreferenced and the
 * epoch can be committed again (for a streaming query, by restarting it). Error class {@link
 * DeltaErrorClass#DELTA_CONCURRENT_APPEND}.
 */
@PublicEvolving
public final class DeltaCommitConflictException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  public DeltaCommitConflictException(String message, Throwable cause) {
    super(DeltaErrorClass.DELTA_CONCURRENT_APPEND, message, cause);
  }
}
