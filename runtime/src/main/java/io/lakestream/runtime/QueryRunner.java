package io.lakestream.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.QueryAlreadyRunningException;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.QueryMetadata;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query's runner, inside the job: Flink runs it on the JobManager (as the split enumerator of
 * {@link QueryRunnerSource}) from the job's start to its end, so attached, detached ({@code flink
 * run -d}), application mode and Managed Service for Apache Flink behave the same whether or not a
 * client stays attached. Every poll interval it
 *
 * <ul>
 *   <li>writes {@code progress/N} for each epoch whose sinks and sources have recorded it ({@link
 *       ProgressTracker}), with the state operators' metrics from the REST API and the epoch's
 *       times (it is told when each checkpoint is triggered and completes: {@link EpochClock});
 *   <li>publishes the latest progress as Flink metrics of the job ({@link QueryMetrics});
 *   <li>renews the checkpoint location's lease (every {@link QueryLease#HEARTBEAT});
 *   <li>writes the restarted query's new {@code metadata} once a snapshot of this run exists;
 *   <li>for availableNow, stops the job with a savepoint in {@code savepoints/} once every source
 *       has caught up ({@link AvailableNowController}, through the REST API).
 * </ul>
 *
 * A detached run whose job fails for a recorded schema change is run again by the JobManager
 * ({@link SchemaChangeResubmitter}, handed the job's end when the runner closes).
 *
 * <p>Flink closes it when the job ends and also on a global failover, after which a new one starts
 * for the same run: closing releases the lease after a last progress poll, starting takes it again
 * (refused, failing the job, if another run took it meanwhile). A runner failing to read or write
 * the location logs a warning and tries again at the next poll; it never fails the job for it.
 */
final class QueryRunner
    implements SplitEnumerator<QueryRunnerSource.NoSplit, QueryRunnerSource.NoState> {
  private static final Logger LOG = LoggerFactory.getLogger(QueryRunner.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * What the runner needs, fixed when the job is built and shipped inside the job graph.
   *
   * @param restoredEpoch the epoch of the snapshot the run restores (0: none)
   * @param sources file-name-safe names of the sources (offsets records; availableNow catch-up)
   * @param restApi the JobManager's REST API, or null when the submitting configuration has none
   * @param pendingMetadataJson the metadata to write once this run has a snapshot, or null
   * @param serviceOwnedSnapshots the snapshots are stored where a managed service keeps them, not
   *     in the checkpoint location: a completed checkpoint of this job counts as the run's snapshot
   * @param resubmission how the JobManager runs the program again after a schema change ({@link
   *     SchemaChangeResubmitter}), or null: the client restarts it, or nobody does
   */
  record Settings(
      URI checkpointLocation,
      String queryId,
      String runId,
      String queryName,
      long restoredEpoch,
      int sinkCount,
      List<String> sources,
      Duration pollInterval,
      boolean availableNow,
      Duration watermarkSettle,
      URI restApi,
      String pendingMetadataJson,
      boolean serviceOwnedSnapshots,
      ProgramInvocation resubmission)
      implements Serializable {
    Settings {
      sources = List.copyOf(sources);
    }
  }

  private final SplitEnumeratorContext<QueryRunnerSource.NoSplit> context;
  private final Settings settings;
  private CheckpointLocation location;
  private QueryLease lease;
  private ProgressTracker progress;
  private StateOperatorProgress stateOperators = StateOperatorProgress.none();
  private AvailableNowController availableNow;
  private JobControl job;
  private QueryMetadata pendingMetadata;
  private long lastHeartbeatNanos;
  private volatile long completedCheckpoint = -1;
  private SchemaChangeResubmitter resubmitter;
  private final EpochClock clock = new EpochClock(Instant.now());
  private QueryMetrics metrics;

  QueryRunner(SplitEnumeratorContext<QueryRunnerSource.NoSplit> context, Settings settings) {
    this.context = context;
    this.settings = settings;
  }

  @Override
  public void start() {
    try {
      location = new CheckpointLocation(settings.checkpointLocation());
      lease = QueryLease.acquire(location, settings.runId(), settings.queryName());
      lastHeartbeatNanos = System.nanoTime();
      location.epochs().deleteRunsExcept(settings.runId());
      pendingMetadata =
          settings.pendingMetadataJson() == null
              ? null
              : MAPPER.readValue(settings.pendingMetadataJson(), QueryMetadata.class);
      connectToJob();
      QueryMetrics.rehearse();
      metrics = new QueryMetrics(context.metricGroup(), settings.queryName());
      progress = tracker();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(
          "Query '" + settings.queryName() + "': the runner could not open " + location, e);
    }
    if (settings.availableNow()) {
      availableNow =
          new AvailableNowController(
              location.epochs(),
              settings.runId(),
              new TreeSet<>(settings.sources()),
              location.savepointsDir().toString(),
              settings.watermarkSettle());
    }
    long poll = settings.pollInterval().toMillis();
    context.callAsync(this::tick, this::afterTick, poll, poll);
    LOG.info(
        "Query '{}' run {}: runner started in the job ({})",
        settings.queryName(),
        settings.runId(),
        job == null ? "no REST API: no state operator metrics" : job);
  }

  /** The job's id (from the enumerator's metric scope) and, with the REST API, its control. */
  private void connectToJob() {
    String id = context.metricGroup().getAllVariables().get("<job_id>");
    if (id == null || settings.restApi() == null) {
      return;
    }
    JobID jobId = JobID.fromHexString(id);
    job = new RestJobControl(settings.restApi(), jobId);
    if (settings.resubmission() != null) {
      resubmitter =
          SchemaChangeResubmitter.open(
                  settings.restApi(),
                  id,
                  settings.queryName(),
                  settings.runId(),
                  settings.resubmission())
              .orElse(null);
    }
    stateOperators =
        new StateOperatorProgress(
            new StateOperatorMetrics(settings.restApi(), jobId, Duration.ofSeconds(5)),
            StateOperatorProgress.MIN_READ_INTERVAL);
  }

  private ProgressTracker tracker() throws IOException {
    return new ProgressTracker(
        location.epochs(),
        settings.queryId(),
        settings.runId(),
        settings.queryName(),
        settings.restoredEpoch(),
        settings.sinkCount(),
        settings.sources().size(),
        Duration.ofSeconds(10).plus(settings.pollInterval().multipliedBy(3)),
        () -> stateOperators,
        clock,
        metrics);
  }

  /**
   * One poll; runs in the coordinator's worker thread. It throws only when this run lost the lease,
   * which {@link #afterTick} turns into the job's failure.
   */
  private Void tick() {
    try {
      heartbeat();
      writePendingMetadata(false);
      stateOperators.refresh();
      progress.poll(false);
      if (availableNow != null && job != null) {
        availableNow.poll(job);
        recordStopFailure();
      }
    } catch (QueryAlreadyRunningException e) {
      throw e;
    } catch (Exception e) {
      LOG.warn("Query '{}': could not read its epoch log", settings.queryName(), e);
    }
    return null;
  }

  /**
   * Fails the job without restarts (Flink fails it for an exception thrown here) when this run lost
   * the lease: a restart would only be refused, since the run that took over holds it.
   */
  private void afterTick(Void ignored, Throwable error) {
    if (error instanceof QueryAlreadyRunningException lost) {
      LOG.error("Query '{}': {}", settings.queryName(), lost.getMessage());
      throw new SuppressRestartsException(lost);
    }
    if (error != null) {
      LOG.warn("Query '{}': runner poll failed", settings.queryName(), error);
    }
  }

  private void heartbeat() throws IOException {
    if (System.nanoTime() - lastHeartbeatNanos >= QueryLease.HEARTBEAT.toNanos()) {
      lease.renew();
      lastHeartbeatNanos = System.nanoTime();
    }
  }

  /**
   * Writes the new metadata once a snapshot newer than the restored one exists: until then the
   * location's snapshots still belong to the previous program. While the job runs only checkpoints
   * count (no savepoint metadata read on every poll); at the end the final savepoint counts too.
   */
  private void writePendingMetadata(boolean ending) throws IOException {
    if (pendingMetadata == null) {
      return;
    }
    if (newestSnapshotId(ending) > settings.restoredEpoch()) {
      location.writeMetadata(pendingMetadata);
      pendingMetadata = null;
    }
  }

  /**
   * The id of the query's newest snapshot: in its checkpoint location, or, when a managed service
   * keeps the snapshots elsewhere, the newest checkpoint of this job Flink reported complete; -1
   * when there is none.
   */
  private long newestSnapshotId(boolean ending) throws IOException {
    if (settings.serviceOwnedSnapshots()) {
      return completedCheckpoint;
    }
    Optional<RestorableSnapshot> newest =
        ending ? location.newestSnapshot() : location.newestCheckpoint();
    return newest.map(RestorableSnapshot::checkpointId).orElse(-1L);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    clock.completed(checkpointId, Instant.now());
    completedCheckpoint = Math.max(completedCheckpoint, checkpointId);
  }

  /** An availableNow stop that failed for good: the client reports it as the run's failure. */
  private void recordStopFailure() throws IOException {
    if (availableNow.savepoint().isCompletedExceptionally()) {
      try {
        availableNow.savepoint().join();
      } catch (RuntimeException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        location.epochs().markRunFailed(settings.runId(), cause.getMessage());
      }
      availableNow = null;
    }
  }

  @Override
  public void close() {
    if (lease == null) {
      return; // never started
    }
    try {
      stateOperators.jobEnded();
      // After the availableNow savepoint the job has ended for sure: report what is there. Else
      // this may be a failover, and an epoch still waiting for a sink's record waits on.
      progress.poll(availableNow != null && availableNow.savepoint().isDone());
      writePendingMetadata(true);
    } catch (Exception e) {
      LOG.warn("Query '{}': could not report its last epochs", settings.queryName(), e);
    } catch (LinkageError e) {
      // Flink closes coordinators asynchronously: the job's class loader may be closed by now, and
      // a class this close needs for the first time cannot load (Flink would swallow the error).
      LOG.warn(
          "Query '{}': could not report its last epochs: the job's class loader is closed ({})",
          settings.queryName(),
          e.toString());
    } finally {
      try {
        lease.close();
      } catch (IOException e) {
        LOG.warn("Query '{}': could not release its lease", settings.queryName(), e);
      }
      if (resubmitter != null) {
        resubmitter.runnerClosed(completedCheckpoint > settings.restoredEpoch());
      }
    }
    LOG.info("Query '{}' run {}: runner closed", settings.queryName(), settings.runId());
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<QueryRunnerSource.NoSplit> splits, int subtaskId) {}

  @Override
  public void addReader(int subtaskId) {}

  @Override
  public QueryRunnerSource.NoState snapshotState(long checkpointId) {
    // Flink snapshots the coordinators when it triggers a checkpoint, before the barriers.
    clock.triggered(checkpointId, Instant.now());
    return new QueryRunnerSource.NoState();
  }
}
