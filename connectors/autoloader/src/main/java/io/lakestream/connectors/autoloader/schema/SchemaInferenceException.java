package io.lakestream.connectors.autoloader.schema;

/**
 * Auto Loader could not determine a schema: the input has no files to sample and no schema was
 * given, or the sample could not be read. The message says what to set.
 */
public class SchemaInferenceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SchemaInferenceException(String message) {
    super(message);
  }

  public SchemaInferenceException(String message, Throwable cause) {
    super(message, cause);
  }
}
