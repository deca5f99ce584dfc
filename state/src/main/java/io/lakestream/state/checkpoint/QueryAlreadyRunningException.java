package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.state.StateErrorClass;

/**
 * Another run holds the checkpoint location's lease: two runs would corrupt one query. Error class
 * {@link StateErrorClass#QUERY_ALREADY_RUNNING}.
 */
@PublicEvolving
public class QueryAlreadyRunningException extends CheckpointLocationException {
  private static final long serialVersionUID = 1L;

  public QueryAlreadyRunningException(String message) {
    super(StateErrorClass.QUERY_ALREADY_RUNNING, message);
  }
}
