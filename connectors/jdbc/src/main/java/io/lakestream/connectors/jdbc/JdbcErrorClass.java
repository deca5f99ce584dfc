package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The JDBC source's error classes; option errors have the options catalog's classes ({@code
 * UNKNOWN_OPTION}, {@code INVALID_OPTION_VALUE}, ...) and unsupported column types {@code
 * UNSUPPORTED_DATA_TYPE}.
 */
@PublicEvolving
public enum JdbcErrorClass implements ErrorClass {
  /**
   * The database could not be reached or refused the connection (wrong url, user or password
   * source): the message names the options to check, never the password.
   */
  JDBC_SOURCE_CONNECTION_FAILED,
  /** A partition's query failed while it was read (the task fails and the partition is re-read). */
  JDBC_SOURCE_READ_FAILED,
  /** The password source (option passwordFile or passwordEnv) gave no password. */
  JDBC_SOURCE_CREDENTIAL_MISSING
}
