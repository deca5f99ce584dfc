package io.lakestream.connectors.avro;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * One value that does not decode: not Avro of the schema, a wrong magic byte, a schema id the
 * registry does not know. The record's fault, not the query's: callers route the record to the dead
 * letters with this message.
 */
@PublicEvolving
public final class AvroDecodeException extends Exception {
  private static final long serialVersionUID = 1L;

  public AvroDecodeException(String message) {
    super(message);
  }

  public AvroDecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
