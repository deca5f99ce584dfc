package io.lakestream.state.checkpoint;

/**
 * A checkpoint location cannot be used as asked: it is unreadable, inconsistent, placed where the
 * query would read or corrupt its own data, or would make the query start from scratch silently.
 * The message says what was found and what to do.
 */
public class CheckpointLocationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CheckpointLocationException(String message) {
    super(message);
  }

  public CheckpointLocationException(String message, Throwable cause) {
    super(message, cause);
  }
}
