package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.state.StateErrorClass;

/**
 * A query cannot be restored from an older snapshot exactly once: a later run already committed
 * epochs after it, and what is needed to replay those epochs identically is missing. Error class
 * {@link StateErrorClass#REPLAY_NOT_POSSIBLE}.
 */
@PublicEvolving
public class ReplayNotPossibleException extends CheckpointLocationException {
  private static final long serialVersionUID = 1L;

  public ReplayNotPossibleException(String message) {
    super(StateErrorClass.REPLAY_NOT_POSSIBLE, message);
  }
}
