package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AvailableNowControllerTest {
  @TempDir Path dir;

  /** A job whose stop-with-savepoint calls fail {@code failures} times, then succeed. */
  private static final class FlakyJob {
    final List<Long> stopCalls = new ArrayList<>();
    int failures;
    boolean cancelled;

    JobControl client() {
      return new JobControl() {
        @Override
        public CompletableFuture<String> stopWithSavepoint(String targetDirectory) {
          stopCalls.add(System.nanoTime());
          return failures-- > 0
              ? CompletableFuture.failedFuture(new IllegalStateException("job is restarting"))
              : CompletableFuture.completedFuture("file:/savepoints/sp-1");
        }

        @Override
        public void cancel() {
          cancelled = true;
        }
      };
    }
  }

  private AvailableNowController caughtUpController(Duration firstRetryDelay) throws Exception {
    EpochLog log = new CheckpointLocation(dir.toUri()).epochs();
    log.markCaughtUp("run-1", "orders");
    return new AvailableNowController(
        log,
        "run-1",
        Set.of("orders"),
        dir.resolve("sp").toString(),
        Duration.ZERO,
        firstRetryDelay);
  }

  @Test
  void aFailedStopIsRetriedAfterAGrowingDelay() throws Exception {
    AvailableNowController controller = caughtUpController(Duration.ofMillis(200));
    FlakyJob job = new FlakyJob();
    job.failures = 2;
    JobControl client = job.client();

    controller.poll(client);
    assertThat(job.stopCalls).hasSize(1);
    controller.poll(client); // within the first delay: no new attempt
    assertThat(job.stopCalls).hasSize(1);
    while (job.stopCalls.size() < 3) {
      controller.poll(client);
      Thread.sleep(5);
    }
    assertThat(job.stopCalls.get(1) - job.stopCalls.get(0)).isGreaterThanOrEqualTo(200_000_000L);
    assertThat(job.stopCalls.get(2) - job.stopCalls.get(1)).isGreaterThanOrEqualTo(400_000_000L);
    assertThat(controller.savepoint()).isCompletedWithValue("file:/savepoints/sp-1");
    assertThat(job.cancelled).isFalse();
  }

  @Test
  void theRetryDelayDoublesUpToThirtySeconds() throws Exception {
    AvailableNowController controller = caughtUpController(Duration.ofSeconds(1));
    assertThat(controller.retryDelay(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(controller.retryDelay(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(controller.retryDelay(5)).isEqualTo(Duration.ofSeconds(16));
    assertThat(controller.retryDelay(6)).isEqualTo(Duration.ofSeconds(30));
    assertThat(controller.retryDelay(40)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void afterTheLastAttemptTheJobIsCancelledAndTheQueryFails() throws Exception {
    AvailableNowController controller = caughtUpController(Duration.ofMillis(1));
    FlakyJob job = new FlakyJob();
    job.failures = Integer.MAX_VALUE;
    JobControl client = job.client();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!controller.savepoint().isDone() && System.nanoTime() < deadline) {
      controller.poll(client);
      Thread.sleep(2);
    }
    assertThat(job.stopCalls).hasSize(AvailableNowController.MAX_STOP_ATTEMPTS);
    assertThat(job.cancelled).isTrue();
    assertThat(controller.savepoint())
        .isCompletedExceptionally()
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withMessageContaining("could not stop with a savepoint after 8 attempts");
  }
}
