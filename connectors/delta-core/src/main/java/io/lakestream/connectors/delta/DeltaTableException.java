package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;

/**
 * A Delta table operation failed in a way the caller should act on (the message says how); the
 * {@link DeltaErrorClass} says which case it is. Unchecked. The subclasses name the cases callers
 * catch; any other Kernel or I/O failure is wrapped in this type, with the table path in the
 * message, the failure as cause, and {@code DELTA_TABLE_READ_FAILED} or {@code
 * DELTA_TABLE_WRITE_FAILED}.
 */
@PublicEvolving
public class DeltaTableException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public DeltaTableException(DeltaErrorClass errorClass, String message) {
    super(errorClass, message);
  }

  public DeltaTableException(DeltaErrorClass errorClass, String message, Throwable cause) {
    super(errorClass, message, cause);
  }
}
