package io.lakestream.state.checkpoint;

/** Another run holds the checkpoint location's lease: two runs would corrupt one query. */
public class QueryAlreadyRunningException extends CheckpointLocationException {
  private static final long serialVersionUID = 1L;

  public QueryAlreadyRunningException(String message) {
    super(message);
  }
}
