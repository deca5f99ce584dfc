package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * Told about a query's life, like Structured Streaming's {@code StreamingQueryListener}. Called on
 * the query handle's thread in the program that started the query, from the progress reports the
 * job writes ({@code progress/N}); must be quick. A detached program that has returned hears
 * nothing more, while the job goes on reporting to its files. An exception in a listener is logged
 * and does not affect the query.
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
