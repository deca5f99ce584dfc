package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The Lakebase sink's error classes, named as Databricks' JDBC streaming sink names them; {@link
 * LakebaseSinkException} carries one.
 */
@PublicEvolving
public enum LakebaseErrorClass implements ErrorClass {
  /** An unknown option, a missing required one, or a value that cannot be used. */
  JDBC_STREAMING_SINK_INVALID_OPTIONS,
  /**
   * The upsert key does not fit the stream, the declared key or the table's primary key, or a
   * stream that deletes has no key.
   */
  JDBC_STREAMING_SINK_INVALID_UPSERT_KEY,
  /** The target table exists but cannot take the stream's rows. */
  JDBC_STREAMING_SINK_TABLE_MISMATCH,
  /** The query's output mode is not supported (complete). */
  JDBC_STREAMING_SINK_UNSUPPORTED_OUTPUT_MODE,
  /**
   * A declared sink schema that cannot be a table: no column, a duplicate or invalid column name
   * (types are checked by the schema model: {@code UNSUPPORTED_DATA_TYPE}, {@code
   * INVALID_DECIMAL}).
   */
  JDBC_STREAMING_SINK_INVALID_SCHEMA,
  /** The table could not be inspected or created. */
  JDBC_STREAMING_SINK_TABLE_SETUP_FAILED,
  /**
   * The database refused the credential twice (the second time just after a fresh one was fetched),
   * or a token endpoint refused the client credentials: check the options the message names
   * (credential, password/passwordfile, oauthclientfile, awsregion, user).
   */
  JDBC_STREAMING_SINK_AUTHENTICATION_FAILED,
  /**
   * Exactly-once mode: an epoch's rows are no longer all in the staging table when the epoch is to
   * be applied (nothing is applied).
   */
  JDBC_STREAMING_SINK_STAGED_ROWS_MISSING
}
