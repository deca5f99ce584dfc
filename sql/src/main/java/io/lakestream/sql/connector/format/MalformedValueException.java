package io.lakestream.sql.connector.format;

import io.lakestream.api.annotation.Internal;

/**
 * A record value that does not decode into the table's columns; its message is the dead letter's
 * reason. The record's fault, never the query's: callers route the record to the dead letters.
 */
@Internal
public final class MalformedValueException extends Exception {
  private static final long serialVersionUID = 1L;

  MalformedValueException(String message) {
    super(message, null, false, false);
  }
}
