package io.lakestream.runtime;

import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One submitted run of a query (started by {@link QueryLauncher}), as the client sees it: the
 * query's {@link StreamingQuery} handle. The run's work (progress, lease, metadata, the
 * availableNow stop) is done inside the job by {@link QueryRunner}; this handle reads the progress
 * reports the runner writes, tells the listeners, and waits for the job. A detached submission
 * ({@code flink run -d}, application mode) returns at once and the job runs on its own.
 */
final class QueryExecution implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(QueryExecution.class);

  /** How long the end of the job waits for the runner to release the lease (its last act). */
  private static final Duration RUNNER_CLOSE_WAIT = Duration.ofSeconds(15);

  record Settings(
      Dataflow dataflow,
      String queryName,
      URI checkpointLocation,
      Trigger trigger,
      OutputMode outputMode,
      StateBackendSettings state,
      int parallelism,
      List<QueryListener> listeners,
      Configuration flinkConfiguration,
      String restoreFrom,
      boolean serviceOwnedSnapshots,
      SchemaChangeRestarts schemaRestarts,
      ProgramInvocation program) {

    /** The same settings restoring the newest snapshot (a restart must not rewind again). */
    Settings withoutRestoreFrom() {
      return new Settings(
          dataflow,
          queryName,
          checkpointLocation,
          trigger,
          outputMode,
          state,
          parallelism,
          listeners,
          flinkConfiguration,
          null,
          serviceOwnedSnapshots,
          schemaRestarts,
          program);
    }

    /** These settings with {@code newTrigger}. */
    Settings withTrigger(Trigger newTrigger) {
      return new Settings(
          dataflow,
          queryName,
          checkpointLocation,
          newTrigger,
          outputMode,
          state,
          parallelism,
          listeners,
          flinkConfiguration,
          restoreFrom,
          serviceOwnedSnapshots,
          schemaRestarts,
          program);
    }
  }

  private final Settings settings;
  private final QueryContext context;
  private final CheckpointLocation location;
  private final QueryLease lease;
  private final long restoredEpoch;
  private final ScheduledExecutorService scheduler;
  private final QueryEnd end = new QueryEnd();
  private volatile JobClient job;
  private volatile boolean detached;
  private volatile ProgressFeed progress;
  private volatile String statusMessage = "Initializing";
  private volatile String failedWith;

  /**
   * @param lease the location's lease the launcher took for this run: the runner renews and
   *     releases it; this handle releases it only if the job ended before the runner could
   * @param restoredEpoch the epoch of the snapshot the run restores (0: none)
   */
  QueryExecution(
      Settings settings,
      QueryContext context,
      CheckpointLocation location,
      QueryLease lease,
      long restoredEpoch) {
    this.settings = settings;
    this.context = context;
    this.location = location;
    this.lease = lease;
    this.restoredEpoch = restoredEpoch;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lakestream-query-" + context.queryName());
              t.setDaemon(true);
              return t;
            });
  }

  /** Submits {@code graph} (built into {@code env}, the runner included) and watches it. */
  void submit(StreamExecutionEnvironment env, StreamGraph graph, Duration poll) throws Exception {
    progress =
        new ProgressFeed(
            location.epochs(),
            context.runId(),
            restoredEpoch,
            Duration.ofSeconds(10).plus(poll.multipliedBy(3)));
    detached = !env.getConfiguration().get(DeploymentOptions.ATTACHED);
    job = env.executeAsync(graph);
    statusMessage = "Running";
    LOG.info(
        "Query '{}' run {} submitted as Flink job {}{}",
        name(),
        runId(),
        job.getJobID(),
        detached ? " (detached: the job reports to " + location + "/progress by itself)" : "");
    if (FlinkSettings.embeddedRun() && !detached) {
      EmbeddedQueryPage.register(this, location.uri(), settings.trigger());
    }
    notifyListeners(l -> l.onQueryStarted(this));
    CompletableFuture<JobExecutionResult> result;
    try {
      result = job.getJobExecutionResult();
    } catch (RuntimeException e) {
      if (!detached) {
        throw e;
      }
      // a jar submission on the JobManager (web submission) has no job result: nobody waits here
      LOG.info("Query '{}' run {}: the job runs on its own ({})", name(), runId(), e.getMessage());
      scheduler.shutdown();
      return;
    }
    scheduler.scheduleWithFixedDelay(
        this::watch, poll.toMillis(), poll.toMillis(), TimeUnit.MILLISECONDS);
    result.whenComplete(this::onJobEnd);
  }

  private void watch() {
    try {
      report(progress.poll());
    } catch (Exception e) {
      LOG.warn("Query '{}': could not read its progress", name(), e);
    }
  }

  private void report(ProgressFeed.Update update) {
    for (QueryProgress p : update.reports()) {
      statusMessage = p.numInputRows() > 0 ? "Processing new data" : "Waiting for data to arrive";
      notifyListeners(l -> l.onQueryProgress(this, p));
    }
    if (update.becameIdle()) {
      statusMessage = "Waiting for data to arrive";
      notifyListeners(l -> l.onQueryIdle(this));
    }
  }

  private void onJobEnd(JobExecutionResult result, Throwable error) {
    scheduler.execute(
        () -> {
          awaitRunnerClosed();
          StreamingQueryException failure = null;
          try {
            report(progress.poll());
            Optional<String> stopFailure = location.epochs().runFailure(runId());
            if (stopFailure.isPresent()) {
              failure =
                  new StreamingQueryException(
                      "Query '"
                          + name()
                          + "' could not stop with a savepoint: "
                          + stopFailure.get(),
                      error);
            }
          } catch (Exception e) {
            LOG.warn("Query '{}': could not read its last epochs", name(), e);
          }
          if (error != null && failure == null) {
            failure = new StreamingQueryException(describeFailure(error), error);
          }
          if (failedWith != null && failure == null) {
            failure =
                new StreamingQueryException(
                    "Query '" + name() + "' was stopped as failed: " + failedWith, null);
          }
          statusMessage = "Stopped";
          LOG.info(
              "Query '{}' run {} {}",
              name(),
              runId(),
              failure == null ? "ended" : "failed: " + failure.getMessage());
          StreamingQueryException ending = failure;
          notifyListeners(l -> l.onQueryTerminated(this, ending));
          scheduler.shutdown();
          end.complete(failure);
        });
  }

  /**
   * Waits until the runner has released the lease, which it does after its last report; releases it
   * here if the job ended without a runner (it failed before starting one).
   */
  private void awaitRunnerClosed() {
    long deadline = System.nanoTime() + RUNNER_CLOSE_WAIT.toNanos();
    try {
      while (QueryLease.isHeldBy(location, runId()) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      lease.close();
    } catch (Exception e) {
      LOG.warn("Query '{}': could not release its checkpoint location", name(), e);
    }
  }

  private String describeFailure(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "Query '"
        + name()
        + "' failed: "
        + root.getClass().getSimpleName()
        + ": "
        + root.getMessage()
        + (String.valueOf(root.getMessage()).endsWith(".") ? "" : ".")
        + " Its checkpoint location "
        + location
        + " keeps the last completed epoch; fix the cause and run it again to resume.";
  }

  private void notifyListeners(java.util.function.Consumer<QueryListener> call) {
    for (QueryListener listener : settings.listeners()) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        LOG.warn("Query listener {} failed", listener, e);
      }
    }
  }

  @Override
  public String id() {
    return context.queryId();
  }

  @Override
  public String runId() {
    return context.runId();
  }

  @Override
  public String name() {
    return context.queryName();
  }

  @Override
  public String appId() {
    return context.appId();
  }

  @Override
  public void awaitTermination() throws StreamingQueryException, InterruptedException {
    end.await();
  }

  @Override
  public boolean awaitTermination(Duration timeout)
      throws StreamingQueryException, InterruptedException {
    return end.await(timeout);
  }

  @Override
  public void stop() throws StreamingQueryException, InterruptedException {
    if (!end.isDone()) {
      try {
        String path =
            job.stopWithSavepoint(
                    false, location.savepointsDir().toString(), SavepointFormatType.NATIVE)
                .get();
        LOG.info("Query '{}' stopped with savepoint {}", name(), path);
      } catch (ExecutionException e) {
        LOG.warn("Query '{}': stop with savepoint failed, cancelling instead", name(), e);
        job.cancel();
      }
    }
    awaitTermination();
  }

  @Override
  public void failWith(String reason) {
    failedWith = reason;
    Thread stopper =
        new Thread(
            () -> {
              try {
                stop();
              } catch (StreamingQueryException e) {
                // the failure the query ends with: awaitTermination reports it
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "lakestream-fail-" + name());
    stopper.setDaemon(true);
    stopper.start();
  }

  @Override
  public void cancel() throws InterruptedException {
    if (!end.isDone()) {
      LOG.warn(
          "Query '{}': cancelling without a savepoint; the next run resumes from the last"
              + " completed checkpoint",
          name());
      job.cancel();
    }
    end.awaitQuietly();
  }

  @Override
  public boolean isDetached() {
    return detached;
  }

  @Override
  public boolean isActive() {
    return !end.isDone();
  }

  @Override
  public Optional<QueryProgress> lastProgress() {
    return progress == null ? Optional.empty() : progress.last();
  }

  @Override
  public List<QueryProgress> recentProgress() {
    return progress == null ? List.of() : progress.recent();
  }

  @Override
  public QueryStatus status() {
    return new QueryStatus(statusMessage, progress != null && progress.lastHadData(), isActive());
  }

  @Override
  public Optional<StreamingQueryException> exception() {
    return end.failure();
  }
}
