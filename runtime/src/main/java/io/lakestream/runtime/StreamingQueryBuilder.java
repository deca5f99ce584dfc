package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.Locations;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.OutputMode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Configures and starts a query, like Structured Streaming's {@code DataStreamWriter}:
 *
 * <pre>{@code
 * StreamingQuery q = StreamingQueryBuilder.of(dataflow)
 *     .queryName("orders_bronze")
 *     .checkpointLocation("s3://lake/_checkpoints/orders_bronze")
 *     .trigger(Trigger.processingTime(Duration.ofSeconds(30)))
 *     .start();
 * }</pre>
 *
 * {@link #start()} validates everything before submitting and fails with a message naming what to
 * change: an unknown trigger, a checkpoint location in use by another run, nested in a source or
 * table, or incompatible with the changed query (the restart matrix).
 */
@PublicEvolving
public final class StreamingQueryBuilder {
  private final Dataflow dataflow;
  private String queryName;
  private URI checkpointLocation;
  private Trigger trigger = Trigger.unspecified();
  private OutputMode outputMode = OutputMode.APPEND;
  private StateBackendSettings state = StateBackendSettings.defaults();
  private int parallelism = 1;
  private final List<QueryListener> listeners = new ArrayList<>();
  private final Configuration flinkConfiguration = new Configuration();
  private String restoreFrom;
  private SchemaChangeRestarts schemaChangeRestarts = SchemaChangeRestarts.defaults();
  private Boolean serviceOwnedSnapshots;
  private ProgramInvocation program;

  private StreamingQueryBuilder(Dataflow dataflow) {
    this.dataflow = Objects.requireNonNull(dataflow, "dataflow");
  }

  public static StreamingQueryBuilder of(Dataflow dataflow) {
    return new StreamingQueryBuilder(dataflow);
  }

  public StreamingQueryBuilder queryName(String name) {
    this.queryName = name;
    return this;
  }

  /** A local path or a URI such as {@code s3://bucket/_checkpoints/q}. */
  public StreamingQueryBuilder checkpointLocation(String location) {
    return checkpointLocation(toUri(location));
  }

  public StreamingQueryBuilder checkpointLocation(URI location) {
    this.checkpointLocation = location;
    return this;
  }

  public StreamingQueryBuilder trigger(Trigger trigger) {
    this.trigger = Objects.requireNonNull(trigger, "trigger");
    return this;
  }

  public StreamingQueryBuilder outputMode(OutputMode mode) {
    this.outputMode = Objects.requireNonNull(mode, "outputMode");
    return this;
  }

  public StreamingQueryBuilder stateBackend(StateBackendSettings settings) {
    this.state = Objects.requireNonNull(settings, "stateBackend");
    return this;
  }

  public StreamingQueryBuilder parallelism(int parallelism) {
    this.parallelism = parallelism;
    return this;
  }

  public StreamingQueryBuilder listener(QueryListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /** Extra Flink settings (restart strategy, memory); the trigger and state settings win. */
  public StreamingQueryBuilder flinkConfiguration(Configuration conf) {
    flinkConfiguration.addAll(conf);
    return this;
  }

  /**
   * Restores this snapshot (a savepoint or retained checkpoint of this query) instead of the newest
   * one. When a later run already committed epochs after it, those epochs are replayed exactly as
   * they were committed (sinks skip them), so every input row still lands once; if that cannot be
   * guaranteed (their source positions are no longer recorded) the start is refused. Newer
   * checkpoints of the abandoned run are deleted and its newer savepoints moved to {@code
   * abandoned/<run id>/} in the checkpoint location.
   */
  public StreamingQueryBuilder restoreFrom(String snapshotPath) {
    this.restoreFrom = snapshotPath;
    return this;
  }

  /**
   * Whether a managed service (Amazon Managed Service for Apache Flink) owns Flink's checkpoint
   * storage and restores: then the query sets no checkpoint or savepoint directory, no restore path
   * and no checkpoint interval; it restores the snapshot the service gave Flink ({@code
   * execution.savepoint.path}) and checks it against its checkpoint location like any restore
   * (epoch, replay, restart matrix). Its {@code metadata}, {@code lock}, {@code offsets/}, {@code
   * commits/} and {@code progress/} stay in the checkpoint location. The trigger must then be the
   * service's checkpoint interval (or be left out), and {@link #restoreFrom}, another state backend
   * than RocksDB and the changelog are refused ({@code QUERY_MANAGED_SERVICE_CONFLICT}). Default:
   * {@link ManagedService#active()} when the query starts.
   */
  public StreamingQueryBuilder serviceOwnedSnapshots(boolean owned) {
    this.serviceOwnedSnapshots = owned;
    return this;
  }

  /**
   * Checks the settings; fails with a {@link LakestreamException} ({@link QueryErrorClass}) naming
   * the bad one.
   */
  public void sanityCheck() {
    if (queryName == null || !queryName.matches("[A-Za-z0-9_][A-Za-z0-9_.-]*")) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_NAME,
          "queryName is required and may contain letters, digits, '_', '.', '-'; was " + queryName);
    }
    if (checkpointLocation == null) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_CHECKPOINT_LOCATION_REQUIRED,
          "checkpointLocation is required: give every query its own directory on durable"
              + " storage, e.g. s3://bucket/_checkpoints/"
              + queryName);
    }
    if (parallelism < 1) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_INVALID_PARALLELISM,
          "parallelism must be >= 1, was " + parallelism);
    }
  }

  /**
   * Whether a query that stops because its input schema changed (with the new schema recorded, as
   * Auto Loader's addNewColumns does) is rebuilt and restarted by itself, and how often. Default:
   * {@link SchemaChangeRestarts#defaults()}.
   */
  public StreamingQueryBuilder restartOnSchemaChange(SchemaChangeRestarts restarts) {
    this.schemaChangeRestarts = Objects.requireNonNull(restarts, "restarts");
    return this;
  }

  /**
   * How the JobManager runs this program again to restart the query after a schema change when it
   * was submitted detached to a session cluster ({@code flink run -d}), where no client is left to
   * do it: the program's main class and its arguments, starting the same query (see {@link
   * ProgramInvocation}). Without it, a detached query that meets a schema change fails with the new
   * schema recorded, and the next submission continues with it.
   */
  public StreamingQueryBuilder programArguments(String entryClass, List<String> args) {
    this.program = new ProgramInvocation(entryClass, args);
    return this;
  }

  /**
   * Validates, prepares the checkpoint location and submits the job. With {@link
   * #serviceOwnedSnapshots} the query is not restarted on a schema change: a rebuilt run could only
   * restore the snapshot the service started it with, not the job's newest checkpoint; the job
   * fails and the service's restart (from its newest snapshot) rebuilds it. A detached submission
   * leaves the restart to the job ({@link #programArguments}).
   */
  public StreamingQuery start() throws Exception {
    sanityCheck();
    QueryExecution.Settings s = settings();
    boolean attached =
        StreamExecutionEnvironment.getExecutionEnvironment()
            .getConfiguration()
            .get(DeploymentOptions.ATTACHED);
    return schemaChangeRestarts.enabled() && !s.serviceOwnedSnapshots() && attached
        ? RestartingQuery.start(s, schemaChangeRestarts)
        : QueryLauncher.start(s);
  }

  QueryExecution.Settings settings() {
    return new QueryExecution.Settings(
        dataflow,
        queryName,
        checkpointLocation,
        trigger,
        outputMode,
        state,
        parallelism,
        List.copyOf(listeners),
        flinkConfiguration,
        restoreFrom == null ? null : Locations.absolute(restoreFrom),
        serviceOwnedSnapshots != null ? serviceOwnedSnapshots : ManagedService.active(),
        schemaChangeRestarts,
        program);
  }

  /** A path without a scheme is a local path, made absolute (see {@link Locations}). */
  public static URI toUri(String location) {
    return URI.create(Locations.absolute(location));
  }
}
