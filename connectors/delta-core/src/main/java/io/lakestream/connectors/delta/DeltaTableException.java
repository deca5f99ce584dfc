package io.lakestream.connectors.delta;

import java.io.IOException;

/**
 * A Delta table operation failed in a way the caller should act on (the message says how). The
 * subclasses name the common cases; any other Kernel failure is wrapped in this type with the table
 * path in the message.
 */
public class DeltaTableException extends IOException {
  private static final long serialVersionUID = 1L;

  public DeltaTableException(String message) {
    super(message);
  }

  public DeltaTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
