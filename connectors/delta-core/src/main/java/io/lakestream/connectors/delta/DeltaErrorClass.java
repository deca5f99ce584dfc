package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the Delta connector (the table layer here and the Flink source, CDF source
 * and sink), named as Delta Lake names them where it has a name. {@link DeltaTableException} and
 * its subclasses carry one.
 */
@PublicEvolving
public enum DeltaErrorClass implements ErrorClass {
  /** There is no Delta table at the path (no {@code _delta_log} with a commit). */
  DELTA_TABLE_NOT_FOUND,
  /** A commit kept losing against concurrent commits it cannot be reconciled with. */
  DELTA_CONCURRENT_APPEND,
  /** The table's columns or partitioning differ from the declaration; mergeSchema may fix it. */
  DELTA_SCHEMA_MISMATCH,
  /** The declaration differs from the table in a way mergeSchema never applies. */
  DELTA_UNSUPPORTED_SCHEMA_CHANGE,
  /** A streaming read met a version that changes the table schema; restart to read it. */
  DELTA_SCHEMA_CHANGED,
  /** The change data feed was not enabled at a requested version. */
  DELTA_CHANGE_DATA_FEED_NOT_ENABLED,
  /** A MERGE batch has several source rows with one key and no ordering column. */
  DELTA_DUPLICATE_MERGE_KEY,
  /** A streaming read met a version that updates or deletes data (set skipChangeCommits). */
  DELTA_SOURCE_TABLE_IGNORE_CHANGES,
  /** A requested version is not (or no longer) in the table's log. */
  DELTA_VERSION_NOT_FOUND,
  /** A version range or starting version outside the table's versions. */
  DELTA_INVALID_VERSION_RANGE,
  /** A data or change file the log references is missing. */
  DELTA_FILE_NOT_FOUND,
  /** A table feature, column type or mode lakestream does not read or write. */
  DELTA_UNSUPPORTED_FEATURE,
  /**
   * A declared table schema Delta cannot hold (no columns, a duplicate, a bad partition column).
   */
  DELTA_INVALID_SCHEMA,
  /**
   * A row that does not fit the table: wrong width, a null in a NOT NULL column, a value too big.
   */
  DELTA_INVALID_ROW,
  /** A MERGE declared without keys or clauses, or whose assignment breaks its key. */
  DELTA_INVALID_MERGE,
  /** A Delta sink setting that cannot be used (the message names it). */
  DELTA_INVALID_SINK_SETTING,
  /**
   * A Delta source filter or column choice that does not fit the table: an unknown column, a value
   * of another type (the message names the column).
   */
  DELTA_INVALID_SOURCE_SETTING,
  /**
   * An OPTIMIZE or VACUUM setting that cannot be used: a filter on a column that is not a partition
   * column, a retention below the table's, a target size too small (names the fix).
   */
  DELTA_INVALID_MAINTENANCE,
  /** An output mode the Delta sink does not take (update: use a MERGE in foreachBatch). */
  DELTA_UNSUPPORTED_OUTPUT_MODE,
  /**
   * The table is damaged: a commit file that is not JSON, data files without a log, or a file or
   * log entry holding a value the Delta protocol does not allow.
   */
  DELTA_TABLE_CORRUPT,
  /** The table could not be created or its schema evolved. */
  DELTA_TABLE_CREATE_FAILED,
  /**
   * A new table would be inside another Delta table's directory, where that table's VACUUM would
   * delete its files.
   */
  DELTA_NESTED_TABLE,
  /** The table's log or files could not be read (the cause says why). */
  DELTA_TABLE_READ_FAILED,
  /** Files or a commit could not be written (the cause says why). */
  DELTA_TABLE_WRITE_FAILED
}
