package io.lakestream.runtime;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.api.net.LoopbackPorts;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CreateIfAbsentSelection;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.contrib.streaming.state.RocksDBConfigurableOptions;
import org.apache.flink.contrib.streaming.state.RocksDBOptions;
import org.apache.flink.core.execution.RestoreMode;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink configuration of one run of a query: the caller's settings, then the state backend, the
 * trigger ({@link TriggerSettings}), bounded restarts, and, when Flink runs embedded, a REST
 * endpoint for progress; plus how the run restores its snapshot. Refuses a savepoint given to Flink
 * directly ({@code QUERY_SAVEPOINT_PATH_NOT_ALLOWED}): a query restores its own snapshots.
 */
final class FlinkSettings {
  /** In-job restarts in a row before the query fails (default restart strategy only). */
  static final int RESTART_ATTEMPTS = 4;

  private FlinkSettings() {}

  /**
   * The configuration a run of {@code s} is submitted with. When Flink runs embedded this also
   * initialises its file systems with the caller's settings. When a managed service owns the
   * snapshots ({@link QueryExecution.Settings#serviceOwnedSnapshots}) the checkpoint storage,
   * interval, restart strategy and restore stay the service's ({@link ServiceSnapshots}).
   *
   * @throws LakestreamException if a savepoint to restore was passed to Flink
   */
  static Configuration forRun(QueryExecution.Settings s) {
    if (s.serviceOwnedSnapshots()) {
      Configuration conf = ServiceSnapshots.forRun(s);
      embedded(conf, s.flinkConfiguration());
      return conf;
    }
    Configuration conf = new Configuration(s.flinkConfiguration());
    conf.addAll(s.state().toConfiguration(s.checkpointLocation()));
    rocksDbLookupDefaults(s.state(), conf);
    TriggerSettings.apply(s.trigger(), conf);
    conf.set(CheckpointingOptions.CREATE_CHECKPOINT_SUB_DIR, false);
    boundRestarts(conf, StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration());
    refuseSavepointPath(conf);
    embedded(conf, s.flinkConfiguration());
    return conf;
  }

  /**
   * Restores {@code snapshot}; checkpoint ids continue after it. A checkpoint is owned by the run
   * (CLAIM: deleted once subsumed); a savepoint stays the user's (NO_CLAIM), so an upgrade can be
   * rolled back by restoring it again (--restore-from). The changelog state backend cannot take the
   * full first checkpoint NO_CLAIM needs: it claims savepoints too.
   */
  static void restore(Configuration conf, RestorableSnapshot snapshot, StateBackendSettings state) {
    conf.set(StateRecoveryOptions.SAVEPOINT_PATH, snapshot.path());
    boolean keepSavepoint =
        snapshot.kind() == RestorableSnapshot.Kind.SAVEPOINT && !state.changelog();
    conf.set(
        StateRecoveryOptions.RESTORE_MODE,
        keepSavepoint ? RestoreMode.NO_CLAIM : RestoreMode.CLAIM);
    conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
  }

  /**
   * The configuration Flink was given before the query's own settings: the cluster's (or the
   * service's) in application mode and under {@code flink run}, with the caller's settings on top.
   */
  static Configuration submitted(QueryExecution.Settings s) {
    Configuration conf =
        Configuration.fromMap(
            StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration().toMap());
    conf.addAll(s.flinkConfiguration());
    return conf;
  }

  /** Lets the restore drop state no operator of the new program claims (a replaced sink's). */
  static void dropUnclaimedState(StreamExecutionEnvironment env) {
    Configuration dropOldSinkState = new Configuration();
    dropOldSinkState.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
    env.configure(dropOldSinkState);
  }

  /**
   * Dedup and join state mostly look up keys they do not hold yet; without bloom filters (Flink's
   * default) every such lookup reads the index and data blocks of each SST file. Bloom filters only
   * pay with partitioned index/filter blocks: whole filter blocks thrash the managed block cache
   * (E2 ran 7x slower). So both are set together, and only when the user set neither.
   */
  static void rocksDbLookupDefaults(StateBackendSettings state, Configuration conf) {
    if (state.backend() == StateBackendSettings.Backend.ROCKSDB
        && !conf.contains(RocksDBConfigurableOptions.USE_BLOOM_FILTER)
        && !conf.contains(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS)) {
      conf.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
      conf.set(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS, true);
    }
  }

  /**
   * Unless a restart strategy is configured (by the caller in {@code conf}, or in {@code
   * submitter}: the configuration the job is submitted with, i.e. the cluster's config.yaml that
   * {@code flink run} reads and its {@code -D} options), a failing task is restarted from the last
   * checkpoint with exponential backoff, but at most {@link #RESTART_ATTEMPTS} times in a row: a
   * deterministic failure (a bug, a missing class, bad data without a dead-letter path) then fails
   * the query with its cause instead of looping forever. A cluster's own strategy is left to apply:
   * the job's configuration would override it.
   */
  static void boundRestarts(Configuration conf, ReadableConfig submitter) {
    if (conf.contains(RestartStrategyOptions.RESTART_STRATEGY)
        || submitter.getOptional(RestartStrategyOptions.RESTART_STRATEGY).isPresent()) {
      return;
    }
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
    conf.set(
        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
        Duration.ofSeconds(1));
    conf.set(
        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
        Duration.ofSeconds(30));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, RESTART_ATTEMPTS);
    conf.set(
        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD,
        Duration.ofMinutes(10));
  }

  private static void refuseSavepointPath(Configuration conf) {
    if (conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH).isPresent()
        || StreamExecutionEnvironment.getExecutionEnvironment()
            .getConfiguration()
            .getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
            .isPresent()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_SAVEPOINT_PATH_NOT_ALLOWED,
          "do not pass a savepoint to restore (-s / execution.state-recovery.path): a lakestream"
              + " query restores the newest snapshot of its checkpoint location by itself. To"
              + " restore an older one, use --restore-from <path> (StreamingQueryBuilder"
              + ".restoreFrom)");
    }
  }

  /** What an embedded Flink (a MiniCluster in this JVM) needs that a cluster has by itself. */
  private static void embedded(Configuration conf, Configuration callerSettings) {
    if (isLocal()) {
      // Embedded, libraries' JVM shutdown hooks (Hadoop's) outlive the job's class loader.
      conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    }
    if (embeddedRun()) {
      embeddedPorts(conf);
    }
    if (isLocal() && configuresFileSystems(callerSettings)) {
      // Embedded: nobody else initialises file systems (s3://) with this configuration, nor the
      // lease's create-if-absent (S3A) there.
      FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
      CreateIfAbsentSelection.configure(conf);
    }
  }

  /**
   * The embedded MiniCluster serves Flink's REST API on a random port unless one is set; progress
   * reads the state operators' metrics there, so pick a free port on 127.0.0.1 (unless the caller
   * chose one) and refresh metrics every second instead of every 10.
   */
  static void embeddedRestEndpoint(Configuration conf, int freePort) {
    if (!conf.contains(RestOptions.BIND_PORT)) {
      conf.set(RestOptions.BIND_PORT, String.valueOf(freePort));
      conf.set(RestOptions.PORT, freePort);
      if (!conf.contains(RestOptions.BIND_ADDRESS)) {
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
      }
      if (!conf.contains(RestOptions.ADDRESS)) {
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
      }
    }
    if (!conf.contains(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL)) {
      conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofSeconds(1));
    }
  }

  /**
   * The embedded run serves its metrics, the query's progress among them, in Prometheus' format on
   * a loopback port it logs ({@link PrometheusEndpoint}), unless the caller configured reporters.
   */
  static void embeddedPrometheus(Configuration conf, int freePort) {
    boolean reporters = conf.keySet().stream().anyMatch(k -> k.startsWith("metrics.reporter"));
    if (!reporters) {
      conf.setString(
          "metrics.reporter.lakestream.factory.class", PrometheusEndpointFactory.class.getName());
      conf.setString("metrics.reporter.lakestream.port", String.valueOf(freePort));
    }
  }

  /**
   * Two distinct free loopback ports, for the REST API and the metrics endpoint, and the query page
   * ({@link EmbeddedQueryPage}) bound on a third. Both sockets are held while the others are
   * chosen: a metrics endpoint binding "any port" while the MiniCluster starts could otherwise be
   * given the REST port just released, and the REST API would not start.
   */
  static void embeddedPorts(Configuration conf) {
    try (ServerSocket rest = LoopbackPorts.reserve();
        ServerSocket metrics = LoopbackPorts.reserve()) {
      embeddedRestEndpoint(conf, rest.getLocalPort());
      embeddedPrometheus(conf, metrics.getLocalPort());
      EmbeddedQueryPage.open(); // binds its own port while these two are held

    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback ports for the embedded REST API", e);
    }
  }

  /**
   * Whether the caller gave file system settings (s3.*, fs.*) or a plugins directory exists; if
   * not, file systems stay as the process initialised them.
   */
  private static boolean configuresFileSystems(Configuration conf) {
    boolean keys = conf.keySet().stream().anyMatch(k -> k.startsWith("s3.") || k.startsWith("fs."));
    return keys || System.getenv("FLINK_PLUGINS_DIR") != null || new File("plugins").isDirectory();
  }

  /** {@code flink run -t local}: a MiniCluster in the client, started by Flink's executor. */
  private static boolean isLocalTarget() {
    return "local"
        .equals(
            StreamExecutionEnvironment.getExecutionEnvironment()
                .getConfiguration()
                .get(DeploymentOptions.TARGET));
  }

  /** Whether runs submitted from this JVM run embedded (a MiniCluster here). */
  static boolean embeddedRun() {
    return isLocal() || isLocalTarget();
  }

  private static boolean isLocal() {
    return StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment;
  }
}
