package io.lakestream.api.error;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * The root of every error lakestream raises on purpose: unchecked, with a stable {@link ErrorClass}
 * and a message that says what happened, why, and what to do (naming the option or command to
 * change). The message starts with the error class in brackets, as Spark's do: {@code
 * [QUERY_ALREADY_RUNNING] Checkpoint location ... is held by run ...}.
 *
 * <p>Subclasses exist where callers catch one kind of failure; they fix their error class or take
 * one of a few.
 */
@PublicEvolving
public class LakestreamException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String errorClass;
  private final String detail;

  public LakestreamException(ErrorClass errorClass, String message) {
    this(errorClass, message, null);
  }

  public LakestreamException(ErrorClass errorClass, String message, Throwable cause) {
    super("[" + errorClass.name() + "] " + Objects.requireNonNull(message, "message"), cause);
    this.errorClass = errorClass.name();
    this.detail = message;
  }

  /** The stable error class name, such as {@code DELTA_CONCURRENT_APPEND}. */
  public String errorClass() {
    return errorClass;
  }

  /** The message without the {@code [ERROR_CLASS]} prefix. */
  public String detail() {
    return detail;
  }

  /**
   * The error class of {@code t} or of the first {@link LakestreamException} among its causes, or
   * null if there is none.
   */
  public static String errorClassOf(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof LakestreamException e) {
        return e.errorClass();
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }
}
