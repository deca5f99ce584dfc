package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A started query, like Structured Streaming's {@code StreamingQuery}. Obtained from {@link
 * StreamingQueryBuilder#start()}.
 */
@PublicEvolving
public interface StreamingQuery {

  /** The query id, stable across runs on the same checkpoint location. */
  String id();

  /** This run's id. */
  String runId();

  String name();

  /** The sink transaction app id of this query. */
  String appId();

  /** Blocks until the query ends; throws {@link StreamingQueryException} if it failed. */
  void awaitTermination() throws StreamingQueryException, InterruptedException;

  /**
   * Blocks at most {@code timeout}; returns whether the query ended.
   *
   * @throws StreamingQueryException if it failed
   */
  boolean awaitTermination(Duration timeout) throws StreamingQueryException, InterruptedException;

  /**
   * Stops the query with a savepoint in its checkpoint location (no drain: open windows and the
   * watermark are kept), so the next run resumes exactly there. Blocks until stopped.
   */
  void stop() throws StreamingQueryException, InterruptedException;

  /**
   * Stops the query as {@link #stop()} does (with a savepoint: the next run resumes there once the
   * cause is fixed) and ends it as failed with {@code reason}: {@link #awaitTermination()} throws a
   * {@link StreamingQueryException} with it, and the command that ran the query exits non-zero. For
   * listeners and monitors that find the query's data unacceptable, e.g. a data-quality threshold
   * on {@code observedMetrics}; returns at once, the query stops in the background.
   */
  void failWith(String reason);

  /**
   * Cancels the job without a savepoint, like a crash of the cluster: the next run resumes from the
   * last completed checkpoint, and sinks replay or skip the epochs after it. Blocks until ended.
   */
  void cancel() throws InterruptedException;

  boolean isActive();

  /**
   * Whether the job was submitted detached ({@code flink run -d}, application mode): the job then
   * writes its progress, keeps its lease and ends an availableNow run by itself, and a program may
   * return right after {@code start()}. This handle still reads the progress while its JVM lives.
   */
  default boolean isDetached() {
    return false;
  }

  /** The most recent progress, if any epoch has committed in this run. */
  Optional<QueryProgress> lastProgress();

  /** Recent progress reports, oldest first (at most 100). */
  List<QueryProgress> recentProgress();

  QueryStatus status();

  /** The failure that ended the query, if it failed. */
  Optional<StreamingQueryException> exception();
}
