package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the query runtime: the query's settings as given to {@link
 * StreamingQueryBuilder} or the command line, and a query that fails while running ({@link
 * #STREAM_FAILED}, when its cause carries no class of its own).
 */
@PublicEvolving
public enum QueryErrorClass implements ErrorClass {
  /** The query name is missing or has characters other than letters, digits, '_', '.', '-'. */
  QUERY_INVALID_NAME,
  /** No checkpoint location was given. */
  QUERY_CHECKPOINT_LOCATION_REQUIRED,
  /** The parallelism is below 1 or above the query's max parallelism. */
  QUERY_INVALID_PARALLELISM,
  /** An operator of the query has no explicit uid, so its state could not be found again. */
  QUERY_OPERATOR_UID_MISSING,
  /** A trigger or duration that cannot be parsed. */
  QUERY_INVALID_TRIGGER,
  /** A trigger the query cannot run: continuous, or availableNow with a source that cannot stop. */
  QUERY_UNSUPPORTED_TRIGGER,
  /** A savepoint to restore was passed to Flink; the query restores its own snapshots. */
  QUERY_SAVEPOINT_PATH_NOT_ALLOWED,
  /**
   * On a managed service that owns checkpoints and restores (Amazon Managed Service for Apache
   * Flink), the query asks for something the service decides: a trigger other than the service's
   * checkpoint interval, at-least-once or unaligned checkpoints, another state backend than
   * RocksDB, the changelog, a snapshot of its own to restore, or a replaced sink's state dropped
   * while the service does not allow non-restored state. The message names the service setting.
   */
  QUERY_MANAGED_SERVICE_CONFLICT,
  /** The query could not stop with a savepoint; it resumes from its last checkpoint. */
  QUERY_STOP_FAILED,
  /**
   * An upgrade could not be done: no single running job to upgrade, its stop with a savepoint
   * failed, or the new run committed no epoch in time. The message says in which state it left the
   * query. (A new program the checkpoint cannot follow is refused with the restart check's own
   * class, before anything is touched.)
   */
  QUERY_UPGRADE_FAILED,
  /**
   * A query that stopped for a schema change is not restarted again: it already restarted {@code
   * --max-schema-restarts-per-hour} times within the hour, or the rebuilt query failed for the same
   * change before committing an epoch (it does not pick the new schema up).
   */
  QUERY_SCHEMA_CHANGE_RESTART_REFUSED,
  /**
   * The query failed while running, for a reason without an error class of its own (Spark's name).
   */
  STREAM_FAILED
}
