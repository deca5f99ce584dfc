package io.lakestream.testkit.flink;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.TempDirectory;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.test.util.MiniClusterPipelineExecutorServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink {@link MiniCluster} in this JVM set up like the production posture: RocksDB state backend
 * with incremental checkpoints, checkpoints in a given directory URI (a local temporary directory
 * by default, or {@code s3://...} on an {@code S3Server}), retained on cancellation, and no
 * restarts (a failing job fails the test at once).
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>All endpoints bind to 127.0.0.1 on random ports; scratch files (RocksDB, spilling) live in
 *       a temporary directory deleted on {@link #close()}, as is the default checkpoint directory.
 *   <li>Flink's file systems are initialized with the cluster configuration and the {@link
 *       S3FileSystemPlugin} before start, so {@code s3://} URIs resolve with the configuration
 *       passed to {@link Builder#configuration(Configuration)}, in jobs and in the test alike. This
 *       is JVM-global: run one such cluster at a time.
 *   <li>Jobs are submitted with {@link #submit(StreamExecutionEnvironment)} (optionally restoring
 *       from a checkpoint or savepoint) or run with {@code execute()} on an {@link #environment()}.
 *       Checkpoints are {@code <checkpointDirectory>/<jobId>/chk-<n>/_metadata}.
 * </ul>
 *
 * <p>Failures: the waiting methods throw {@link IllegalStateException} on timeout or when the job
 * ends in another state than expected, with the job's failure as cause where there is one.
 */
public final class FlinkMiniCluster implements AutoCloseable {

  /** Default checkpoint interval. */
  public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofMillis(500);

  private static final Logger LOG = LoggerFactory.getLogger(FlinkMiniCluster.class);

  private final MiniCluster miniCluster;
  private final Configuration configuration;
  private final URI checkpointDirectory;
  private final int parallelism;
  private final TempDirectory scratch;
  private boolean closed;

  private FlinkMiniCluster(
      MiniCluster miniCluster,
      Configuration configuration,
      URI checkpointDirectory,
      int parallelism,
      TempDirectory scratch) {
    this.miniCluster = miniCluster;
    this.configuration = configuration;
    this.checkpointDirectory = checkpointDirectory;
    this.parallelism = parallelism;
    this.scratch = scratch;
  }

  /** A builder with 1 task manager of 2 slots and local checkpoints. */
  public static Builder builder() {
    return new Builder();
  }

  /** The running Flink mini cluster, for what this class does not offer. */
  public MiniCluster miniCluster() {
    return miniCluster;
  }

  /** A copy of the cluster's configuration, which is also the default configuration of jobs. */
  public Configuration configuration() {
    return new Configuration(configuration);
  }

  /** The directory checkpoints go to: {@code <it>/<jobId>/chk-<n>}. */
  public URI checkpointDirectory() {
    return checkpointDirectory;
  }

  /** The number of slots, which is the default parallelism of jobs. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * A new environment with the cluster's configuration whose {@code execute()} and {@code
   * executeAsync()} run on this cluster.
   */
  public StreamExecutionEnvironment environment() {
    return environment(null);
  }

  /**
   * Like {@link #environment()}, restoring jobs from the given checkpoint or savepoint (a {@code
   * chk-<n>} directory, its {@code _metadata} file or a savepoint directory). Null means no
   * restore.
   */
  public StreamExecutionEnvironment environment(URI restoreFrom) {
    Configuration config =
        MiniClusterPipelineExecutorServiceLoader.updateConfigurationForMiniCluster(
            new Configuration(configuration), List.of(), List.of());
    if (restoreFrom != null) {
      config.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom.toString());
    }
    StreamExecutionEnvironment env =
        new StreamExecutionEnvironment(
            new MiniClusterPipelineExecutorServiceLoader(miniCluster),
            config,
            Thread.currentThread().getContextClassLoader());
    env.setParallelism(parallelism);
    return env;
  }

  /**
   * Submits the pipeline defined on {@code env} (any environment; it is not executed by it) and
   * returns at once.
   *
   * @throws IllegalStateException if the cluster refuses the job
   */
  public JobID submit(StreamExecutionEnvironment env) {
    return submit(env, null);
  }

  /**
   * Submits the pipeline defined on {@code env}, restoring its state from the given checkpoint or
   * savepoint (null: no restore). All state of the checkpoint must map to operators of the job.
   *
   * @throws IllegalStateException if the cluster refuses the job
   */
  public JobID submit(StreamExecutionEnvironment env, URI restoreFrom) {
    StreamGraph streamGraph = env.getStreamGraph();
    if (restoreFrom != null) {
      streamGraph.setSavepointRestoreSettings(
          SavepointRestoreSettings.forPath(restoreFrom.toString(), false));
    }
    return submit(streamGraph.getJobGraph(Thread.currentThread().getContextClassLoader(), null));
  }

  /**
   * Submits a job graph and returns at once.
   *
   * @throws IllegalStateException if the cluster refuses the job
   */
  public JobID submit(JobGraph jobGraph) {
    await(
        "submit job " + jobGraph.getName(), miniCluster.submitJob(jobGraph), Duration.ofMinutes(1));
    return jobGraph.getJobID();
  }

  /** The current status of a job. */
  public JobStatus status(JobID jobId) {
    return await(
        "get status of job " + jobId, miniCluster.getJobStatus(jobId), Duration.ofMinutes(1));
  }

  /**
   * The number of checkpoints of a job that completed so far (0 while it has none or checkpointing
   * is off).
   */
  public long completedCheckpoints(JobID jobId) {
    CheckpointStatsSnapshot stats = executionGraph(jobId).getCheckpointStatsSnapshot();
    return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
  }

  /**
   * The location of the newest completed checkpoint of a running or finished job, as the job master
   * knows it.
   */
  public Optional<URI> latestCompletedCheckpoint(JobID jobId) {
    CheckpointStatsSnapshot stats = executionGraph(jobId).getCheckpointStatsSnapshot();
    if (stats == null) {
      return Optional.empty();
    }
    CompletedCheckpointStats latest = stats.getHistory().getLatestCompletedCheckpoint();
    return latest == null || latest.getExternalPath() == null
        ? Optional.empty()
        : Optional.of(URI.create(latest.getExternalPath()));
  }

  /**
   * Waits until {@code more} checkpoints of the job complete after those completed so far: every
   * commit of the checkpoints before (including a replay after a restore) has run by then, so a
   * test waits on this rather than sleeping when "a duplicate, if any, would land now".
   *
   * @throws IllegalStateException on timeout, or if the job ends first
   */
  public void waitForMoreCheckpoints(JobID jobId, int more, Duration timeout) {
    waitForCompletedCheckpoints(
        jobId, Math.toIntExact(completedCheckpoints(jobId) + more), timeout);
  }

  /**
   * Waits until at least {@code count} checkpoints of the job have completed.
   *
   * @throws IllegalStateException on timeout, or if the job ends first
   */
  public void waitForCompletedCheckpoints(JobID jobId, int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      AccessExecutionGraph graph = executionGraph(jobId);
      CheckpointStatsSnapshot stats = graph.getCheckpointStatsSnapshot();
      long completed = stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
      if (completed >= count) {
        return;
      }
      if (graph.getState().isGloballyTerminalState()) {
        throw new IllegalStateException(
            "job "
                + jobId
                + " ended "
                + graph.getState()
                + " after "
                + completed
                + " of the "
                + count
                + " awaited checkpoints",
            graph.getFailureInfo() == null ? null : graph.getFailureInfo().getException());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "job "
                + jobId
                + " completed "
                + completed
                + " of "
                + count
                + " checkpoints in "
                + timeout
                + " (state "
                + graph.getState()
                + ")");
      }
      sleep(50);
    }
  }

  /**
   * Cancels a job and waits until it is cancelled.
   *
   * @return the job's result
   * @throws IllegalStateException if it does not end within {@code timeout}
   */
  public JobResult cancel(JobID jobId, Duration timeout) {
    await("cancel job " + jobId, miniCluster.cancelJob(jobId), timeout);
    return waitForTermination(jobId, timeout);
  }

  /**
   * Waits until a job reaches a terminal state.
   *
   * @throws IllegalStateException if it does not end within {@code timeout}
   */
  public JobResult waitForTermination(JobID jobId, Duration timeout) {
    return await("wait for the end of job " + jobId, miniCluster.requestJobResult(jobId), timeout);
  }

  /**
   * Waits until a job finishes successfully.
   *
   * @throws IllegalStateException if it fails, is cancelled, or does not end within {@code
   *     timeout}; a failure is the cause
   */
  public void waitForSuccess(JobID jobId, Duration timeout) {
    JobResult result = waitForTermination(jobId, timeout);
    if (!result.isSuccess()) {
      throw new IllegalStateException(
          "job " + jobId + " ended " + result.getApplicationStatus(),
          result
              .getSerializedThrowable()
              .map(t -> t.deserializeError(Thread.currentThread().getContextClassLoader()))
              .orElse(null));
    }
  }

  /**
   * The newest checkpoint of a job that is still stored under {@link #checkpointDirectory()} and
   * complete (has {@code _metadata}): after a cancellation, what to restore from.
   *
   * @throws UncheckedIOException if the directory cannot be listed
   */
  public Optional<URI> latestRetainedCheckpoint(JobID jobId) {
    return RetainedCheckpoints.latest(RetainedCheckpoints.jobDirectory(checkpointDirectory, jobId));
  }

  /**
   * Stops the cluster (cancelling running jobs) and deletes its scratch directory and, if it
   * created it, the checkpoint directory. Idempotent.
   *
   * @throws IllegalStateException if the cluster does not stop within a minute
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      miniCluster.closeAsync().get(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping the Flink mini cluster", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot stop the Flink mini cluster", e);
    } finally {
      scratch.close();
    }
  }

  @Override
  public String toString() {
    return "FlinkMiniCluster[" + parallelism + " slots, checkpoints " + checkpointDirectory + "]";
  }

  private AccessExecutionGraph executionGraph(JobID jobId) {
    return await(
        "get execution graph of job " + jobId,
        miniCluster.getExecutionGraph(jobId),
        Duration.ofMinutes(1));
  }

  private static <T> T await(
      String what, java.util.concurrent.CompletableFuture<T> future, Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + " within " + timeout, e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Configures and starts a {@link FlinkMiniCluster}. */
  public static final class Builder {

    private int taskManagers = 1;
    private int slotsPerTaskManager = 2;
    private URI checkpointDirectory;
    private Duration checkpointInterval = DEFAULT_CHECKPOINT_INTERVAL;
    private final Configuration extra = new Configuration();

    private Builder() {}

    /** Number of task managers (default 1). */
    public Builder taskManagers(int count) {
      this.taskManagers = count;
      return this;
    }

    /** Slots per task manager (default 2). */
    public Builder slotsPerTaskManager(int count) {
      this.slotsPerTaskManager = count;
      return this;
    }

    /**
     * Where checkpoints go, e.g. {@code s3://bucket/checkpoints} (then pass the S3 server's Flink
     * configuration to {@link #configuration}). Default: a temporary directory deleted on close.
     */
    public Builder checkpointDirectory(URI directory) {
      this.checkpointDirectory = directory;
      return this;
    }

    /** Checkpoint interval (default {@link #DEFAULT_CHECKPOINT_INTERVAL}). */
    public Builder checkpointInterval(Duration interval) {
      this.checkpointInterval = interval;
      return this;
    }

    /** Adds settings, which win over the defaults (e.g. the S3 server's Flink configuration). */
    public Builder configuration(Configuration configuration) {
      this.extra.addAll(configuration);
      return this;
    }

    /** Adds one setting, which wins over the defaults. */
    public Builder set(String key, String value) {
      this.extra.setString(key, value);
      return this;
    }

    /**
     * Starts the cluster.
     *
     * @throws IllegalStateException if it does not start
     */
    public FlinkMiniCluster start() {
      TempDirectory scratch = TempDirectory.create("lakestream-flink-");
      MiniCluster miniCluster = null;
      try {
        URI checkpoints =
            checkpointDirectory != null
                ? checkpointDirectory
                : scratch.path().resolve("checkpoints").toUri();
        java.nio.file.Path io = scratch.path().resolve("io");
        java.nio.file.Files.createDirectories(io);

        Configuration config = new Configuration();
        config.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        config.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        config.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toString());
        config.set(
            CheckpointingOptions.SAVEPOINT_DIRECTORY,
            RetainedCheckpoints.child(checkpoints, "savepoints").toString());
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        config.set(
            CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
            ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        config.set(CoreOptions.TMP_DIRS, io.toString());
        config.setString("rest.bind-address", FreePort.LOOPBACK);
        config.setString("rest.address", FreePort.LOOPBACK);
        config.addAll(extra);

        S3FileSystemPlugin.initializeFileSystems(config);

        miniCluster =
            new MiniCluster(
                new MiniClusterConfiguration.Builder()
                    .setConfiguration(config)
                    .setNumTaskManagers(taskManagers)
                    .setNumSlotsPerTaskManager(slotsPerTaskManager)
                    .setCommonBindAddress(FreePort.LOOPBACK)
                    .withRandomPorts()
                    .setPluginManager(S3FileSystemPlugin.pluginManager())
                    .build());
        miniCluster.start();
        int slots = taskManagers * slotsPerTaskManager;
        LOG.info("Flink mini cluster started: {} slots, checkpoints in {}", slots, checkpoints);
        return new FlinkMiniCluster(miniCluster, config, checkpoints, slots, scratch);
      } catch (Exception | LinkageError e) {
        IllegalStateException failure =
            new IllegalStateException("Flink mini cluster failed to start: " + e, e);
        if (miniCluster != null) {
          try {
            miniCluster.close();
          } catch (Exception cleanup) {
            failure.addSuppressed(cleanup);
          }
        }
        try {
          scratch.close();
        } catch (RuntimeException cleanup) {
          failure.addSuppressed(cleanup);
        }
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw failure;
      }
    }
  }
}
