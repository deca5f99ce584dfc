package io.lakestream.sql;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/** The error classes of lakestream's Flink SQL layer: its connectors, catalog and statements. */
@PublicEvolving
public enum SqlErrorClass implements ErrorClass {
  /**
   * A lakestream table was used outside the query runtime, which gives sinks their app id and
   * sources their trigger: run the statements with {@code SqlDataflow} (or {@code lakestream sql}).
   */
  SQL_QUERY_RUNTIME_REQUIRED,
  /** A table's declared columns differ from the stored table's (name or type). */
  SQL_SCHEMA_MISMATCH,
  /** A query sends updates or deletes to a table that takes appends only (declare a key). */
  SQL_UPDATES_INTO_APPEND_ONLY_TABLE,
  /** A statement lakestream does not run as part of a query (a SELECT without INSERT INTO). */
  SQL_UNSUPPORTED_STATEMENT,
  /** A script has no INSERT INTO, so the query would have no sink. */
  SQL_NO_INSERT,
  /** A statement failed to parse or validate; the message names its line and column. */
  SQL_INVALID_STATEMENT,
  /**
   * A {@code CREATE OR REFRESH STREAMING TABLE} cannot run: its clauses do not parse, its schedule
   * is under the 1-minute minimum, it is not in a Delta catalog, its query's columns differ from
   * the table's, or it runs outside its own refresh.
   */
  SQL_INVALID_STREAMING_TABLE,
  /**
   * A {@code DROP_DUPLICATES_WITHIN_WATERMARK} view cannot be planned: its input has no watermark
   * or one whose delay is not {@code ts - INTERVAL ...}, a key column is missing or cannot key
   * state, or the statement is not {@code CREATE TEMPORARY VIEW v AS SELECT * FROM TABLE(...)}.
   */
  SQL_INVALID_DEDUPLICATION,
  /**
   * A script's query setting ({@code SET 'lakestream.trigger'}, {@code 'lakestream.queryName'},
   * {@code 'lakestream.checkpointLocation'}) differs from how the query was started: start it with
   * {@code SqlDataflow.queryBuilder()} or {@code lakestream sql}, which apply them.
   */
  SQL_QUERY_SETTING_NOT_APPLIED
}
