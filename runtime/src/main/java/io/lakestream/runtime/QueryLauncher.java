package io.lakestream.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.SourceSpec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Starts one run of a query: configures Flink ({@link FlinkSettings}), plans the start on the
 * checkpoint location ({@link StartPlan}: restart checks, snapshot, replay, metadata), builds and
 * checks the dataflow, takes the location's lease and submits the job restoring the planned
 * snapshot ({@link QueryExecution}). Every refusal happens before the job is submitted, with a
 * message that says what to change; a start that fails after taking the lease releases it.
 */
final class QueryLauncher {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private QueryLauncher() {}

  static StreamingQuery start(QueryExecution.Settings given) throws Exception {
    boolean service = given.serviceOwnedSnapshots();
    Configuration submitted = service ? FlinkSettings.submitted(given) : null;
    QueryExecution.Settings s = service ? ServiceSnapshots.settle(given, submitted) : given;
    Configuration conf = FlinkSettings.forRun(s);
    StartPlan plan = plan(s, submitted);
    if (!service) {
      plan.snapshot().ifPresent(snapshot -> FlinkSettings.restore(conf, snapshot, s.state()));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(s.parallelism());
    QueryContext context = context(s, plan);
    Built built = build(s, env, context);
    DataflowInspector inspector = built.inspector();
    QueryFingerprint fingerprint =
        inspector.fingerprint(s.state().backend().flinkName(), s.state().maxParallelism());
    StartPlan.Admitted admitted =
        plan.admit(
            fingerprint,
            inspector.inputPaths(),
            inspector.sourcesWithoutExactReplay(),
            built.plan(),
            false);
    if (admitted.dropsReplacedSinkState() && service) {
      ServiceSnapshots.requireNonRestoredStateAllowed(submitted);
    } else if (admitted.dropsReplacedSinkState()) {
      FlinkSettings.dropUnclaimedState(env);
    }
    Optional<ResubmittedRun> restart =
        ResubmittedRun.requested(
            StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration());
    if (restart.isPresent()) {
      restart.get().admit(s.queryName(), s.schemaRestarts(), plan.location());
    }
    return submit(s, admitted, context, env, fingerprint);
  }

  /**
   * Reads the checkpoint location: the run restores its newest snapshot (or {@code restoreFrom}),
   * or, when a managed service owns the snapshots, the one the service gave Flink.
   *
   * @param submitted the configuration Flink was given (read only when a service owns snapshots)
   */
  private static StartPlan plan(QueryExecution.Settings s, Configuration submitted)
      throws java.io.IOException {
    if (s.serviceOwnedSnapshots()) {
      return StartPlan.readForService(
          s.checkpointLocation(),
          s.queryName(),
          ServiceSnapshots.restorePath(submitted),
          s.parallelism(),
          s.state().maxParallelism());
    }
    return StartPlan.read(
        s.checkpointLocation(),
        s.queryName(),
        s.restoreFrom(),
        s.parallelism(),
        s.state().maxParallelism());
  }

  /**
   * Checks, changing nothing, whether the program of {@code s} may take over its checkpoint
   * location from the program running there now, restoring the savepoint an upgrade takes: the same
   * checks {@link #start} makes (restart matrix, nesting, replay) without the lease.
   *
   * @throws LakestreamException the refusal {@link #start} would give
   */
  static RestartCheck check(QueryExecution.Settings s) throws Exception {
    Configuration conf = FlinkSettings.forRun(s);
    StartPlan plan = plan(s, s.serviceOwnedSnapshots() ? FlinkSettings.submitted(s) : null);
    StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
    env.setParallelism(s.parallelism());
    Built built = build(s, env, context(s, plan));
    DataflowInspector inspector = built.inspector();
    QueryFingerprint fingerprint =
        inspector.fingerprint(s.state().backend().flinkName(), s.state().maxParallelism());
    StartPlan.Admitted admitted =
        plan.admit(
            fingerprint,
            inspector.inputPaths(),
            inspector.sourcesWithoutExactReplay(),
            built.plan(),
            true);
    return new RestartCheck(
        s.queryName(),
        plan.queryId(),
        plan.resumes(),
        plan.restoredEpoch(),
        admitted.dropsReplacedSinkState());
  }

  private static QueryContext context(QueryExecution.Settings s, StartPlan plan) {
    return new QueryContext(
        plan.queryId(),
        s.queryName(),
        plan.runId(),
        plan.appId(),
        plan.location().uri().toString(),
        TriggerSettings.bounded(s.trigger()),
        s.trigger() instanceof Trigger.Once,
        s.outputMode(),
        plan.replay(),
        s.trigger() instanceof Trigger.RealTime);
  }

  /** A built dataflow: its transformations' inspector and its own plan, if it has one. */
  private record Built(DataflowInspector inspector, Optional<DataflowPlan> plan) {}

  /**
   * Builds the dataflow into {@code env} and checks it: every operator has a uid, an availableNow
   * run's sources can stop at the data available at start.
   */
  private static Built build(
      QueryExecution.Settings s, StreamExecutionEnvironment env, QueryContext context) {
    Optional<DataflowPlan> plan = Optional.empty();
    if (s.dataflow() instanceof PlannedDataflow planned) {
      plan = planned.buildPlanned(env, context);
    } else {
      s.dataflow().build(env, context);
    }
    DataflowInspector inspector = new DataflowInspector(new ArrayList<>(env.getTransformations()));
    inspector.requireUids();
    if (context.availableNow()) {
      List<String> unbounded = inspector.sourcesWithoutAvailableNow();
      if (!unbounded.isEmpty()) {
        throw new LakestreamException(
            QueryErrorClass.QUERY_UNSUPPORTED_TRIGGER,
            "trigger "
                + s.trigger()
                + " needs sources that can stop at the data available at start; "
                + unbounded
                + " cannot. Use --trigger processingTime=<interval> for this query.");
      }
    }
    TriggerSettings.adaptToSources(s.trigger(), inspector.anySourceLimitsEpochs(), env);
    return new Built(inspector, plan);
  }

  /** Takes the lease, prepares the location and submits the job; releases the lease on failure. */
  private static StreamingQuery submit(
      QueryExecution.Settings s,
      StartPlan.Admitted admitted,
      QueryContext context,
      StreamExecutionEnvironment env,
      QueryFingerprint fingerprint)
      throws Exception {
    StartPlan plan = admitted.plan();
    QueryLease lease = QueryLease.acquire(plan.location(), plan.runId(), s.queryName());
    try {
      Optional<QueryMetadata> pending = admitted.prepareLocation();
      QueryRunner.Settings runner = runnerSettings(s, plan, context, env, fingerprint, pending);
      QueryRunnerSource.addTo(env, runner);
      StreamGraph graph = env.getStreamGraph();
      graph.setJobName(s.queryName());
      QueryExecution execution =
          new QueryExecution(s, context, plan.location(), lease, plan.restoredEpoch());
      execution.submit(env, graph, runner.pollInterval());
      return execution;
    } catch (Exception | Error e) {
      lease.close();
      throw e;
    }
  }

  /**
   * How the JobManager runs the program again after a schema change: only for a detached run (an
   * attached one has its client, {@link RestartingQuery}) whose restarts are on, and not where a
   * managed service restores the job.
   */
  private static ProgramInvocation resubmission(
      QueryExecution.Settings s, StreamExecutionEnvironment env) {
    boolean attached = env.getConfiguration().get(DeploymentOptions.ATTACHED);
    boolean restarts = s.schemaRestarts() != null && s.schemaRestarts().enabled();
    return !attached && restarts && !s.serviceOwnedSnapshots() ? s.program() : null;
  }

  /**
   * What the in-job runner needs. An availableNow run without a REST address could never stop
   * itself: refused here, before anything runs.
   */
  private static QueryRunner.Settings runnerSettings(
      QueryExecution.Settings s,
      StartPlan plan,
      QueryContext context,
      StreamExecutionEnvironment env,
      QueryFingerprint fingerprint,
      Optional<QueryMetadata> pending)
      throws java.io.IOException {
    List<String> sources = new ArrayList<>();
    for (SourceSpec source : fingerprint.sources()) {
      sources.add(EpochLog.fileName(source.name()));
    }
    Optional<URI> rest = StateOperatorMetrics.restAddress(env.getConfiguration());
    if (context.availableNow() && rest.isEmpty()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_UNSUPPORTED_TRIGGER,
          "trigger "
              + s.trigger()
              + " stops the job through Flink's REST API, and the configuration names none"
              + " (no rest.address, rest.port 0 as on YARN application mode, or a REST API with"
              + " SSL). Set rest.address and a fixed rest.port (-Drest.port=<port>), or use"
              + " --trigger processingTime=<interval>.");
    }
    return new QueryRunner.Settings(
        plan.location().uri(),
        context.queryId(),
        context.runId(),
        context.queryName(),
        plan.restoredEpoch(),
        fingerprint.sinks().size(),
        sources,
        TriggerSettings.pollInterval(s.trigger()),
        context.availableNow(),
        Duration.ofMillis(3 * Math.max(1, env.getConfig().getAutoWatermarkInterval())),
        rest.orElse(null),
        pending.isEmpty() ? null : MAPPER.writeValueAsString(pending.get()),
        s.serviceOwnedSnapshots(),
        resubmission(s, env));
  }
}
