package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateErrorClass;

/**
 * A checkpoint location cannot be used as asked: it is unreadable, inconsistent, placed where the
 * query would read or corrupt its own data, or would make the query start from scratch silently.
 * The message says what was found and what to do; the {@code CHECKPOINT_LOCATION_*} error class
 * ({@link StateErrorClass}) says which case it is.
 */
@PublicEvolving
public class CheckpointLocationException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public CheckpointLocationException(StateErrorClass errorClass, String message) {
    super(errorClass, message);
  }

  public CheckpointLocationException(StateErrorClass errorClass, String message, Throwable cause) {
    super(errorClass, message, cause);
  }
}
