package io.lakestream.runtime;

/** A query failed while running; the cause is Flink's job failure. */
public class StreamingQueryException extends Exception {
  private static final long serialVersionUID = 1L;

  public StreamingQueryException(String message, Throwable cause) {
    super(message, cause);
  }
}
