package io.lakestream.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * Ends the running job of a query: what the in-job {@link QueryRunner} uses to stop an availableNow
 * run with a savepoint, or to cancel it when that keeps failing.
 */
interface JobControl {
  /**
   * Stops the job with a savepoint in {@code targetDirectory}, without draining (no MAX_WATERMARK:
   * open windows and state survive). Completes with the savepoint's path, or exceptionally when the
   * stop failed (the job then keeps running).
   */
  CompletableFuture<String> stopWithSavepoint(String targetDirectory);

  /** Cancels the job without a savepoint; the next run resumes from the last checkpoint. */
  void cancel();
}
