package io.lakestream.runtime;

import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.SourceSpec;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One submitted run of a query (started by {@link QueryLauncher}): watches the job until it ends
 * (progress, availableNow stop, lease heartbeat, the new metadata after the first snapshot) and is
 * the query's {@link StreamingQuery} handle.
 */
final class QueryExecution implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(QueryExecution.class);

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
      String restoreFrom) {}

  private final Settings settings;
  private final QueryContext context;
  private final CheckpointLocation location;
  private final QueryLease lease;
  private final ScheduledExecutorService scheduler;
  private final CompletableFuture<Void> terminated = new CompletableFuture<>();
  private volatile JobClient job;
  private volatile ProgressTracker progress;
  private volatile StateOperatorProgress stateOperators = StateOperatorProgress.none();
  private volatile AvailableNowController availableNow;
  private volatile StreamingQueryException failure;
  private volatile String statusMessage = "Initializing";

  /**
   * The restarted query's new metadata, written once this run has completed a snapshot: until then
   * the location's snapshots still belong to the previous program, and a run that fails to start
   * must not leave the location described as something it never ran. Null once written (or when the
   * start wrote it: a new query).
   */
  private volatile QueryMetadata pendingMetadata;

  private final long restoredEpoch;

  /**
   * @param lease the location's lease, held by this run; released when the run ends
   * @param pendingMetadata the metadata to write once this run has completed a snapshot, or null
   * @param restoredEpoch the epoch of the snapshot the run restores (0: none)
   */
  QueryExecution(
      Settings settings,
      QueryContext context,
      CheckpointLocation location,
      QueryLease lease,
      QueryMetadata pendingMetadata,
      long restoredEpoch) {
    this.settings = settings;
    this.context = context;
    this.location = location;
    this.lease = lease;
    this.pendingMetadata = pendingMetadata;
    this.restoredEpoch = restoredEpoch;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lakestream-query-" + context.queryName());
              t.setDaemon(true);
              return t;
            });
  }

  /** Submits {@code graph} (built into {@code env}, with fingerprint {@code fp}) and watches it. */
  void submit(StreamExecutionEnvironment env, StreamGraph graph, QueryFingerprint fp)
      throws Exception {
    Set<String> sources = new TreeSet<>();
    for (SourceSpec source : fp.sources()) {
      sources.add(EpochLog.fileName(source.name()));
    }
    Duration poll = TriggerSettings.pollInterval(settings.trigger());
    progress = progressTracker(fp.sinks().size(), sources.size(), poll);
    if (context.availableNow()) {
      availableNow =
          new AvailableNowController(
              location.epochs(),
              context.runId(),
              sources,
              location.savepointsDir().toString(),
              Duration.ofMillis(3 * Math.max(1, env.getConfig().getAutoWatermarkInterval())));
    }
    job = env.executeAsync(graph);
    stateOperators = stateOperatorProgress(env.getConfiguration());
    statusMessage = "Running";
    LOG.info("Query '{}' run {} submitted as Flink job {}", name(), runId(), job.getJobID());
    notifyListeners(l -> l.onQueryStarted(this));

    scheduler.scheduleWithFixedDelay(
        this::watch, poll.toMillis(), poll.toMillis(), TimeUnit.MILLISECONDS);
    scheduler.scheduleWithFixedDelay(
        this::heartbeat,
        QueryLease.HEARTBEAT.toMillis(),
        QueryLease.HEARTBEAT.toMillis(),
        TimeUnit.MILLISECONDS);
    job.getJobExecutionResult().whenComplete(this::onJobEnd);
  }

  private ProgressTracker progressTracker(int sinks, int sources, Duration poll)
      throws java.io.IOException {
    return new ProgressTracker(
        location.epochs(),
        context.queryId(),
        context.runId(),
        context.queryName(),
        restoredEpoch,
        sinks,
        sources,
        Duration.ofSeconds(10).plus(poll.multipliedBy(3)),
        () -> stateOperators,
        new ProgressTracker.Sink() {
          @Override
          public void progress(QueryProgress p) {
            statusMessage =
                p.numInputRows() > 0 ? "Processing new data" : "Waiting for data to arrive";
            notifyListeners(l -> l.onQueryProgress(QueryExecution.this, p));
          }

          @Override
          public void idle() {
            statusMessage = "Waiting for data to arrive";
            notifyListeners(l -> l.onQueryIdle(QueryExecution.this));
          }
        });
  }

  /**
   * The state operators' metrics of the submitted job, read from Flink's REST API if it has one.
   */
  private StateOperatorProgress stateOperatorProgress(ReadableConfig conf) {
    Optional<URI> rest = StateOperatorMetrics.restAddress(conf);
    if (rest.isEmpty()) {
      LOG.warn(
          "Query '{}': no Flink REST address (rest.address) in the configuration, or REST uses"
              + " SSL; progress reports no stateOperators",
          name());
      return StateOperatorProgress.none();
    }
    return new StateOperatorProgress(
        new StateOperatorMetrics(rest.get(), job.getJobID(), Duration.ofSeconds(5)),
        StateOperatorProgress.MIN_READ_INTERVAL);
  }

  /**
   * Writes the new metadata once a snapshot newer than the restored one exists. While the job runs
   * only checkpoints are looked at (no savepoint metadata file read on every poll); at the end the
   * final savepoint counts too.
   */
  private void writePendingMetadata(boolean jobEnded) throws java.io.IOException {
    QueryMetadata metadata = pendingMetadata;
    if (metadata == null) {
      return;
    }
    Optional<RestorableSnapshot> newest =
        jobEnded ? location.newestSnapshot() : location.newestCheckpoint();
    if (newest.isPresent() && newest.get().checkpointId() > restoredEpoch) {
      location.writeMetadata(metadata);
      pendingMetadata = null;
    }
  }

  private void watch() {
    try {
      writePendingMetadata(false);
      stateOperators.refresh();
      progress.poll(false);
      if (availableNow != null) {
        availableNow.poll(job);
      }
    } catch (Exception e) {
      LOG.warn("Query '{}': could not read its epoch log", name(), e);
    }
  }

  private void heartbeat() {
    try {
      lease.renew();
    } catch (Exception e) {
      LOG.warn("Query '{}': could not renew its checkpoint location lease", name(), e);
    }
  }

  private void onJobEnd(JobExecutionResult result, Throwable error) {
    scheduler.execute(
        () -> {
          try {
            if (availableNow != null
                && (availableNow.stopping() || availableNow.savepoint().isDone())) {
              availableNow.savepoint().get(1, TimeUnit.MINUTES);
            }
          } catch (Exception e) {
            if (error == null) {
              failure =
                  new StreamingQueryException(
                      "Query '" + name() + "' could not stop with a savepoint", e);
            }
          }
          stateOperators.jobEnded();
          try {
            progress.poll(true);
          } catch (Exception e) {
            LOG.warn("Query '{}': could not read its last epochs", name(), e);
          }
          try {
            writePendingMetadata(true);
          } catch (Exception e) {
            LOG.warn("Query '{}': could not update its metadata", name(), e);
          }
          if (error != null && failure == null) {
            failure = new StreamingQueryException(describeFailure(error), error);
          }
          statusMessage = "Stopped";
          try {
            location.epochs().deleteRun(runId());
            lease.close();
          } catch (Exception e) {
            LOG.warn("Query '{}': could not release its checkpoint location", name(), e);
          }
          LOG.info(
              "Query '{}' run {} {}",
              name(),
              runId(),
              failure == null ? "ended" : "failed: " + failure.getMessage());
          notifyListeners(l -> l.onQueryTerminated(this, failure));
          scheduler.shutdown();
          terminated.complete(null);
        });
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
        + ". Its checkpoint location "
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
    try {
      terminated.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public boolean awaitTermination(Duration timeout)
      throws StreamingQueryException, InterruptedException {
    try {
      terminated.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
    if (failure != null) {
      throw failure;
    }
    return true;
  }

  @Override
  public void stop() throws StreamingQueryException, InterruptedException {
    if (!terminated.isDone()) {
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
  public void cancel() throws InterruptedException {
    if (!terminated.isDone()) {
      LOG.warn(
          "Query '{}': cancelling without a savepoint; the next run resumes from the last"
              + " completed checkpoint",
          name());
      job.cancel();
    }
    try {
      terminated.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean isActive() {
    return !terminated.isDone();
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
    return Optional.ofNullable(failure);
  }
}
