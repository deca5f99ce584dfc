package io.lakestream.testkit.flink;

/**
 * Thrown by {@link FlinkCluster} and {@link FlinkCommand} when a process does not come up, a
 * command fails or a wait times out. Messages of start failures end with the tail of the process's
 * log.
 */
public final class FlinkClusterException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public FlinkClusterException(String message) {
    super(message);
  }

  /** Creates the exception; {@code cause} may be null. */
  public FlinkClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
