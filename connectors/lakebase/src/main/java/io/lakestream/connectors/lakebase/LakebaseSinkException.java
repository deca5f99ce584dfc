package io.lakestream.connectors.lakebase;

/**
 * A Lakebase sink that cannot start: invalid options, an unsupported output mode, or a target table
 * that does not fit the stream. The message starts with the error class in brackets and says what
 * to change; it never contains a password.
 *
 * <p>Thrown by {@link LakebaseSinkBuilder#sanityCheck()} (before any connection) and {@link
 * LakebaseSinkBuilder#build()} (after inspecting the table).
 */
public class LakebaseSinkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An unknown option, a missing required one, or a value that cannot be used. */
  public static final String INVALID_OPTIONS = "JDBC_STREAMING_SINK_INVALID_OPTIONS";

  /** The upsert key does not fit the stream or the table's primary key. */
  public static final String INVALID_UPSERT_KEY = "JDBC_STREAMING_SINK_INVALID_UPSERT_KEY";

  /** The target table exists but cannot take the stream's rows. */
  public static final String TABLE_MISMATCH = "JDBC_STREAMING_SINK_TABLE_MISMATCH";

  /** The query's output mode is not supported (complete). */
  public static final String UNSUPPORTED_OUTPUT_MODE =
      "JDBC_STREAMING_SINK_UNSUPPORTED_OUTPUT_MODE";

  /** The table could not be inspected or created. */
  public static final String TABLE_SETUP_FAILED = "JDBC_STREAMING_SINK_TABLE_SETUP_FAILED";

  private final String errorClass;

  public LakebaseSinkException(String errorClass, String message) {
    this(errorClass, message, null);
  }

  public LakebaseSinkException(String errorClass, String message, Throwable cause) {
    super("[" + errorClass + "] " + message, cause);
    this.errorClass = errorClass;
  }

  /** The error class, one of the constants of this class. */
  public String errorClass() {
    return errorClass;
  }
}
