package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;

/**
 * A Lakebase sink that cannot start: invalid options, an unsupported output mode, or a target table
 * that does not fit the stream; or a credential the database or token endpoint refuses ({@link
 * #AUTHENTICATION_FAILED}, also while running). The message starts with the error class in brackets
 * ({@link LakebaseErrorClass}) and says what to change; it never contains a password or token.
 *
 * <p>Thrown by {@link LakebaseSinkBuilder#sanityCheck()} (before any connection) and {@link
 * LakebaseSinkBuilder#build()} (after inspecting the table), and by a connection attempt whose
 * credential is refused twice.
 */
@PublicEvolving
public class LakebaseSinkException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  /** An unknown option, a missing required one, or a value that cannot be used. */
  public static final String INVALID_OPTIONS =
      LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_OPTIONS.name();

  /**
   * The upsert key does not fit the stream, the declared key or the table's primary key, or a
   * stream that deletes has no key.
   */
  public static final String INVALID_UPSERT_KEY =
      LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_UPSERT_KEY.name();

  /** The target table exists but cannot take the stream's rows. */
  public static final String TABLE_MISMATCH =
      LakebaseErrorClass.JDBC_STREAMING_SINK_TABLE_MISMATCH.name();

  /** The query's output mode is not supported (complete). */
  public static final String UNSUPPORTED_OUTPUT_MODE =
      LakebaseErrorClass.JDBC_STREAMING_SINK_UNSUPPORTED_OUTPUT_MODE.name();

  /** The table could not be inspected or created. */
  public static final String TABLE_SETUP_FAILED =
      LakebaseErrorClass.JDBC_STREAMING_SINK_TABLE_SETUP_FAILED.name();

  /** The database or a token endpoint refused the credential, also after one fresh attempt. */
  public static final String AUTHENTICATION_FAILED =
      LakebaseErrorClass.JDBC_STREAMING_SINK_AUTHENTICATION_FAILED.name();

  /** Exactly-once mode: an epoch's staged rows are missing. */
  public static final String STAGED_ROWS_MISSING =
      LakebaseErrorClass.JDBC_STREAMING_SINK_STAGED_ROWS_MISSING.name();

  /**
   * @param errorClass one of the constants of this class (a {@link LakebaseErrorClass} name)
   * @throws IllegalArgumentException if it is none of them
   */
  public LakebaseSinkException(String errorClass, String message) {
    this(errorClass, message, null);
  }

  /**
   * @param errorClass one of the constants of this class (a {@link LakebaseErrorClass} name)
   * @throws IllegalArgumentException if it is none of them
   */
  public LakebaseSinkException(String errorClass, String message, Throwable cause) {
    super(LakebaseErrorClass.valueOf(errorClass), message, cause);
  }
}
