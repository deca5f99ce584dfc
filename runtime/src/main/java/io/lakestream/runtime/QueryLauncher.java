package io.lakestream.runtime;

import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.checkpoint.LocationNesting;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.IncompatibleRestartException;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.ReplayPlan;
import io.lakestream.state.query.RestartCompatibility;
import io.lakestream.state.query.SinkKind;
import io.lakestream.state.query.SinkSpec;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MetricOptions;
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
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts one run of a query: prepares its checkpoint location (metadata, restart checks, newest
 * snapshot, lease), configures Flink for the trigger and the state settings, builds the dataflow
 * and submits it restoring that snapshot. Every refusal happens here, before anything runs, with a
 * message that says what to change.
 */
final class QueryLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(QueryLauncher.class);

  /** Savepoints kept in a checkpoint location (newest first); older ones are deleted at start. */
  static final int RETAINED_SAVEPOINTS = 5;

  private QueryLauncher() {}

  static StreamingQuery start(QueryExecution.Settings s) throws Exception {
    CheckpointLocation location = new CheckpointLocation(s.checkpointLocation());
    Configuration conf = new Configuration(s.flinkConfiguration());
    conf.addAll(s.state().toConfiguration(s.checkpointLocation()));
    rocksDbLookupDefaults(s.state(), conf);
    TriggerSettings.apply(s.trigger(), conf);
    conf.set(CheckpointingOptions.CREATE_CHECKPOINT_SUB_DIR, false);
    boundRestarts(conf);
    if (conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH).isPresent()
        || StreamExecutionEnvironment.getExecutionEnvironment()
            .getConfiguration()
            .getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
            .isPresent()) {
      throw new IllegalArgumentException(
          "do not pass a savepoint to restore (-s / execution.state-recovery.path): a lakestream"
              + " query restores the newest snapshot of its checkpoint location by itself. To"
              + " restore an older one, use --restore-from <path> (StreamingQueryBuilder"
              + ".restoreFrom)");
    }
    if (isLocal()) {
      // Embedded, libraries' JVM shutdown hooks (Hadoop's) outlive the job's class loader.
      conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    }
    if (isLocal() || isLocalTarget()) {
      embeddedRestEndpoint(conf);
    }
    if (isLocal() && configuresFileSystems(s.flinkConfiguration())) {
      // Embedded: nobody else initialises file systems (s3://) with this configuration.
      FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    }

    Optional<QueryMetadata> metadata = location.readMetadata();
    List<Long> epochs = location.epochs().committedEpochs();
    Optional<RestorableSnapshot> newest = location.newestSnapshot();
    Optional<RestorableSnapshot> snapshot =
        s.restoreFrom() == null ? newest : Optional.of(location.snapshotAt(s.restoreFrom()));
    if (s.restoreFrom() != null && metadata.isEmpty()) {
      throw new CheckpointLocationException(
          "Cannot restore "
              + s.restoreFrom()
              + ": checkpoint location "
              + location
              + " has no metadata, so it does not belong to a query yet. Restore into the"
              + " checkpoint location the snapshot was taken from.");
    }
    ReplayPlan replay = rewindPlan(location, snapshot, newest, epochs);
    if (metadata.isEmpty() && (snapshot.isPresent() || !epochs.isEmpty())) {
      throw new CheckpointLocationException(
          "Checkpoint location "
              + location
              + " holds snapshots or epochs but no metadata file: it was damaged or not written by"
              + " lakestream. Restore the metadata file, or use a new checkpoint location.");
    }
    if (metadata.isPresent() && snapshot.isEmpty() && !epochs.isEmpty()) {
      throw new CheckpointLocationException(
          "Checkpoint location "
              + location
              + " has committed epochs up to "
              + epochs.get(epochs.size() - 1)
              + " but no restorable checkpoint or savepoint (state/chk-N or savepoints/ with"
              + " _metadata): they were deleted or never retained. Running now would silently"
              + " start from scratch (sources from their starting positions, empty state)."
              + " Restore the snapshot files, or start over deliberately with a new"
              + " checkpoint location.");
    }
    if (metadata.isEmpty() && s.parallelism() > s.state().maxParallelism()) {
      // RestartCompatibility reports this on a restart. Without this check a new query failed
      // only at submission ("Failed to execute job"), after its metadata was written: raising the
      // max parallelism was then refused as a restart change although nothing had ever run.
      throw new IllegalArgumentException(
          "parallelism "
              + s.parallelism()
              + " exceeds the max parallelism "
              + s.state().maxParallelism()
              + " of this new query: lower the parallelism, or raise the max parallelism now"
              + " (it cannot change once the query has run)");
    }
    snapshot.ifPresent(
        sn -> {
          // Checkpoint ids continue after the snapshot. A checkpoint is owned by the run (CLAIM:
          // deleted once subsumed); a savepoint stays the user's (NO_CLAIM), so an upgrade can be
          // rolled back by restoring it again (--restore-from). The changelog state backend
          // cannot take the full first checkpoint NO_CLAIM needs: it claims savepoints too.
          conf.set(StateRecoveryOptions.SAVEPOINT_PATH, sn.path());
          boolean keepSavepoint =
              sn.kind() == RestorableSnapshot.Kind.SAVEPOINT && !s.state().changelog();
          conf.set(
              StateRecoveryOptions.RESTORE_MODE,
              keepSavepoint ? RestoreMode.NO_CLAIM : RestoreMode.CLAIM);
          conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
        });
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(s.parallelism());

    String queryId = metadata.map(QueryMetadata::queryId).orElse(UUID.randomUUID().toString());
    String runId = UUID.randomUUID().toString();
    String originalName = metadata.map(QueryMetadata::queryName).orElse(s.queryName());
    if (!originalName.equals(s.queryName())) {
      LOG.warn(
          "Checkpoint location {} belongs to query '{}'; running it as '{}' keeps its identity"
              + " and sink app id",
          location,
          originalName,
          s.queryName());
    }
    QueryContext context =
        new QueryContext(
            queryId,
            s.queryName(),
            runId,
            QueryContext.appIdFor(originalName, queryId),
            location.uri().toString(),
            TriggerSettings.bounded(s.trigger()),
            s.trigger() instanceof Trigger.Once,
            s.outputMode(),
            replay,
            s.trigger() instanceof Trigger.RealTime);

    s.dataflow().build(env, context);
    DataflowInspector inspector = new DataflowInspector(new ArrayList<>(env.getTransformations()));
    inspector.requireUids();
    if (context.availableNow()) {
      List<String> unbounded = inspector.sourcesWithoutAvailableNow();
      if (!unbounded.isEmpty()) {
        throw new IllegalArgumentException(
            "trigger "
                + s.trigger()
                + " needs sources that can stop at the data available at start; "
                + unbounded
                + " cannot. Use --trigger processingTime=<interval> for this query.");
      }
    }
    TriggerSettings.adaptToSources(s.trigger(), inspector.anySourceLimitsEpochs(), env);
    if (!replay.isEmpty()) {
      List<String> cannotReplay = inspector.sourcesWithoutExactReplay();
      if (!cannotReplay.isEmpty()) {
        throw new IncompatibleRestartException(
            List.of(
                "restoring "
                    + snapshot.get().path()
                    + " would replay epochs "
                    + (replay.restoredEpoch() + 1)
                    + ".."
                    + replay.lastEpoch()
                    + " that a later run already committed, but sources "
                    + cannotReplay
                    + " cannot replay them exactly as committed, so rows could land twice or"
                    + " never. Restore the newest snapshot instead (omit --restore-from)"));
      }
    }
    QueryFingerprint fingerprint =
        inspector.fingerprint(s.state().backend().flinkName(), s.state().maxParallelism());
    LocationNesting.check(s.checkpointLocation(), inspector.inputPaths(), tablePaths(fingerprint));
    QueryMetadata pending;
    if (metadata.isPresent()) {
      RestartCompatibility.check(metadata.get().fingerprint(), fingerprint, s.parallelism());
      allowReplacedSink(metadata.get().fingerprint(), fingerprint, snapshot, env);
      pending = metadata.get().nextRun(runId, fingerprint);
    } else {
      pending =
          new QueryMetadata(
              QueryMetadata.FORMAT_VERSION,
              queryId,
              s.queryName(),
              Instant.now().toString(),
              runId,
              fingerprint);
    }

    QueryLease lease = QueryLease.acquire(location, runId, s.queryName());
    try {
      if (metadata.isPresent()) {
        LOG.info(
            "Query '{}' (id {}) resumes from {} on checkpoint location {}; sink app id {}",
            s.queryName(),
            queryId,
            snapshot
                .map(sn -> sn.kind() + " " + sn.path() + " (epoch " + sn.checkpointId() + ")")
                .orElse("the beginning (no epoch completed yet)"),
            location,
            context.appId());
      } else {
        LOG.info(
            "Query '{}' starts from scratch: new checkpoint location {} (query id {}). Sources"
                + " begin at their starting positions; sink transactions use app id {}",
            s.queryName(),
            location,
            queryId,
            context.appId());
        // A new location gets its identity at once: its snapshots must never lack metadata.
        location.writeMetadata(pending);
        pending = null;
      }
      if (snapshot.isPresent()) {
        if (!replay.isEmpty()) {
          LOG.warn(
              "Query '{}' rewinds to epoch {} ({}): epochs {}..{} were committed by a later run;"
                  + " they are replayed exactly as committed (sinks skip them) and the later"
                  + " run's snapshots are retired",
              s.queryName(),
              replay.restoredEpoch(),
              snapshot.get().path(),
              replay.restoredEpoch() + 1,
              replay.lastEpoch());
          location.abandonSnapshotsAfter(snapshot.get().checkpointId(), runId);
        }
        location.deleteCheckpointsOlderThan(snapshot.get().checkpointId());
        location.pruneSavepoints(RETAINED_SAVEPOINTS, snapshot.get().path());
      }

      StreamGraph graph = env.getStreamGraph();
      graph.setJobName(s.queryName());
      QueryExecution execution = new QueryExecution(s, context, location, lease);
      execution.pendingMetadata = pending;
      execution.submit(env, graph, fingerprint, snapshot.map(RestorableSnapshot::checkpointId));
      return execution;
    } catch (Exception | Error e) {
      lease.close();
      throw e;
    }
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
   * What the sources must replay when the restored snapshot is older than what a later run
   * completed (its newest snapshot, or the last epoch a sink committed): see {@link ReplayPlan}.
   */
  private static ReplayPlan rewindPlan(
      CheckpointLocation location,
      Optional<RestorableSnapshot> snapshot,
      Optional<RestorableSnapshot> newest,
      List<Long> committedEpochs)
      throws IOException {
    if (snapshot.isEmpty()) {
      return ReplayPlan.NONE;
    }
    long last = newest.map(RestorableSnapshot::checkpointId).orElse(-1L);
    if (!committedEpochs.isEmpty()) {
      last = Math.max(last, committedEpochs.get(committedEpochs.size() - 1));
    }
    return location.epochs().replayPlan(snapshot.get().checkpointId(), last);
  }

  /**
   * A sink the restart matrix lets the query replace (file to Kafka, a renamed only sink, a sink of
   * another kind under the same uid) leaves state behind that the new program cannot take. Dropping
   * it is safe only when restoring a savepoint: stopping with a savepoint committed every epoch, so
   * nothing is pending in it.
   */
  private static void allowReplacedSink(
      QueryFingerprint before,
      QueryFingerprint after,
      Optional<RestorableSnapshot> snapshot,
      StreamExecutionEnvironment env) {
    Set<String> now = new TreeSet<>();
    after.sinks().forEach(sink -> now.add(sink.name() + " " + sink.kind()));
    List<String> replaced =
        before.sinks().stream()
            .filter(sink -> !now.contains(sink.name() + " " + sink.kind()))
            .map(SinkSpec::name)
            .toList();
    if (replaced.isEmpty() || snapshot.isEmpty()) {
      return;
    }
    if (snapshot.get().kind() != RestorableSnapshot.Kind.SAVEPOINT) {
      throw new IncompatibleRestartException(
          List.of(
              "sink "
                  + replaced
                  + " is replaced, but the newest snapshot is a checkpoint: its last epoch may"
                  + " not be committed to the old sink yet. Stop the query with a savepoint first"
                  + " (run it with --trigger availableNow, or StreamingQuery.stop()), then switch"
                  + " the sink"));
    }
    LOG.warn(
        "Sink {} is replaced: its state in savepoint {} is dropped (all its epochs are committed)",
        replaced,
        snapshot.get().path());
    Configuration dropOldSinkState = new Configuration();
    dropOldSinkState.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
    env.configure(dropOldSinkState);
  }

  /**
   * Unless a restart strategy is configured (the cluster's config.yaml, the caller), a failing task
   * is restarted from the last checkpoint with exponential backoff, but at most {@link
   * #RESTART_ATTEMPTS} times in a row: a deterministic failure (a bug, a missing class, bad data
   * without a dead-letter path) then fails the query with its cause instead of looping forever.
   */
  static void boundRestarts(Configuration conf) {
    if (conf.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
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

  /** In-job restarts in a row before the query fails (default restart strategy only). */
  static final int RESTART_ATTEMPTS = 4;

  /**
   * Whether the caller gave file system settings (s3.*, fs.*) or a plugins directory exists; if
   * not, file systems stay as the process initialised them.
   */
  private static boolean configuresFileSystems(Configuration conf) {
    boolean keys = conf.keySet().stream().anyMatch(k -> k.startsWith("s3.") || k.startsWith("fs."));
    return keys
        || System.getenv("FLINK_PLUGINS_DIR") != null
        || new java.io.File("plugins").isDirectory();
  }

  /**
   * The embedded MiniCluster serves Flink's REST API on a random port unless one is set; progress
   * reads the state operators' metrics there, so pick a free port on 127.0.0.1 (unless the caller
   * chose one) and refresh metrics every second instead of every 10.
   */
  static void embeddedRestEndpoint(Configuration conf) {
    if (!conf.contains(RestOptions.BIND_PORT)) {
      try (java.net.ServerSocket socket =
          new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        conf.set(RestOptions.BIND_PORT, String.valueOf(socket.getLocalPort()));
        conf.set(RestOptions.PORT, socket.getLocalPort());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("no free port for the embedded REST API", e);
      }
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

  /** {@code flink run -t local}: a MiniCluster in the client, started by Flink's executor. */
  private static boolean isLocalTarget() {
    return "local"
        .equals(
            StreamExecutionEnvironment.getExecutionEnvironment()
                .getConfiguration()
                .get(DeploymentOptions.TARGET));
  }

  private static boolean isLocal() {
    return StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment;
  }

  private static List<URI> tablePaths(QueryFingerprint fingerprint) {
    List<URI> paths = new ArrayList<>();
    for (SinkSpec sink : fingerprint.sinks()) {
      if (sink.kind() == SinkKind.FILE || sink.kind() == SinkKind.DELTA) {
        paths.add(URI.create(sink.target()));
      }
    }
    return paths;
  }
}
