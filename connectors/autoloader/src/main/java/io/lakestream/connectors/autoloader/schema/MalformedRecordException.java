package io.lakestream.connectors.autoloader.schema;

/**
 * A record that cannot be read with the schema and has nowhere to go (no {@code _rescued_data}
 * column): a malformed line or a value of the wrong type. The message names the file, the line and
 * the option that would keep such records ({@code cloudFiles.schemaEvolutionMode=rescue}).
 */
public class MalformedRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MalformedRecordException(String message) {
    super(message);
  }
}
