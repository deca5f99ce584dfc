package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * A record could not be parsed or failed a declared check. The message names the field and the
 * problem; it ends up in the dead-letter record, so it never contains secrets.
 */
@PublicEvolving
public class RecordParseException extends Exception {
  private static final long serialVersionUID = 1L;

  public RecordParseException(String message) {
    super(message);
  }

  public RecordParseException(String message, Throwable cause) {
    super(message, cause);
  }
}
