package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * Told about a query's life, like Structured Streaming's {@code StreamingQueryListener}. Called on
 * the runner's threads (the client, or the JobManager in application mode); must be quick. An
 * exception in a listener is logged and does not affect the query.
 */
@PublicEvolving
public interface QueryListener {

  default void onQueryStarted(StreamingQuery query) {}

  default void onQueryProgress(StreamingQuery query, QueryProgress progress) {}

  /** No epoch committed for a while: the query is waiting for data. */
  default void onQueryIdle(StreamingQuery query) {}

  /**
   * @param error the failure, or null when the query ended normally
   */
  default void onQueryTerminated(StreamingQuery query, Throwable error) {}
}
