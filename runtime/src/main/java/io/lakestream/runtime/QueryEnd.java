package io.lakestream.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The end of a query (one run, or a query that restarts itself): completed once, with the failure
 * that ended it or none; what {@link StreamingQuery#awaitTermination()} waits on. Thread-safe.
 */
final class QueryEnd {
  private final CompletableFuture<StreamingQueryException> ended = new CompletableFuture<>();

  /** Ends the query; {@code failure} null when it ended normally. Later calls are ignored. */
  void complete(StreamingQueryException failure) {
    ended.complete(failure);
  }

  boolean isDone() {
    return ended.isDone();
  }

  /** The failure that ended the query; empty while it runs or when it ended normally. */
  Optional<StreamingQueryException> failure() {
    return Optional.ofNullable(ended.getNow(null));
  }

  /** Waits for the end; throws the failure that ended the query. */
  void await() throws StreamingQueryException, InterruptedException {
    StreamingQueryException failure = awaitQuietly();
    if (failure != null) {
      throw failure;
    }
  }

  /** Waits at most {@code timeout}; whether the query ended (throws its failure if it did). */
  boolean await(Duration timeout) throws StreamingQueryException, InterruptedException {
    StreamingQueryException failure;
    try {
      failure = ended.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    }
    if (failure != null) {
      throw failure;
    }
    return true;
  }

  /** Waits for the end; returns the failure, or null. */
  StreamingQueryException awaitQuietly() throws InterruptedException {
    try {
      return ended.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    }
  }
}
