package io.lakestream.connectors.autoloader.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;

/**
 * A record that cannot be read with the schema and has nowhere to go (no {@code _rescued_data}
 * column): a malformed line or a value of the wrong type. The message names the file, the line and
 * the option that would keep such records ({@code cloudFiles.schemaEvolutionMode=rescue}). Error
 * class {@code MALFORMED_RECORD_IN_PARSING}, as Spark names it.
 */
@PublicEvolving
public class MalformedRecordException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public MalformedRecordException(String message) {
    super(AutoLoaderErrorClass.MALFORMED_RECORD_IN_PARSING, message);
  }
}
