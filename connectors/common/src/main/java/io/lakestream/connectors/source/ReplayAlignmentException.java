package io.lakestream.connectors.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;

/**
 * A source could not make a replayed epoch end where the original did (see {@link ReplayedEpochs});
 * the run fails instead of writing rows twice or losing them. Error class {@link
 * ConnectorErrorClass#SOURCE_REPLAY_MISALIGNED}.
 */
@PublicEvolving
public class ReplayAlignmentException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public ReplayAlignmentException(String message) {
    super(ConnectorErrorClass.SOURCE_REPLAY_MISALIGNED, message);
  }
}
