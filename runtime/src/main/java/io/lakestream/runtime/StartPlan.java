package io.lakestream.runtime;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.checkpoint.LocationNesting;
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
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one start of a query does with its checkpoint location, decided from what the location
 * holds, before anything runs and without a Flink job. In three steps: {@link #read} finds who the
 * query is, which snapshot the run restores and which committed epochs it replays (a rewind); once
 * the program is built, {@link #admit} checks it against the location (restart matrix, the plan of
 * the last run for a {@link PlannedDataflow}, nesting, replaced sinks) and decides the metadata the
 * location gets; {@link Admitted#prepareLocation} then makes the location ready (metadata of a new
 * query, snapshots retired by a rewind, old checkpoints and savepoints deleted).
 *
 * <p>Every refusal happens in {@link #read} or {@link #admit}, before the location is changed, and
 * says what to do: {@link CheckpointLocationException} when the location is inconsistent or a
 * restore does not fit it (also {@code ReplayNotPossibleException}), {@link
 * IncompatibleRestartException} when the program changed in a way its snapshot cannot follow,
 * {@code QUERY_INVALID_PARALLELISM} when a new query's parallelism exceeds its max parallelism.
 */
final class StartPlan {
  private static final Logger LOG = LoggerFactory.getLogger(StartPlan.class);

  /** Savepoints kept in a checkpoint location (newest first); older ones are deleted at start. */
  static final int RETAINED_SAVEPOINTS = 5;

  private final URI checkpointLocation;
  private final CheckpointLocation location;
  private final Optional<QueryMetadata> previous;
  private final Optional<RestorableSnapshot> snapshot;
  private final ReplayPlan replay;
  private final String queryName;
  private final String queryId;
  private final String runId;
  private final int parallelism;
  private final boolean serviceOwned;

  private StartPlan(
      URI checkpointLocation,
      CheckpointLocation location,
      Optional<QueryMetadata> previous,
      Optional<RestorableSnapshot> snapshot,
      ReplayPlan replay,
      String queryName,
      int parallelism,
      boolean serviceOwned) {
    this.checkpointLocation = checkpointLocation;
    this.location = location;
    this.previous = previous;
    this.snapshot = snapshot;
    this.replay = replay;
    this.queryName = queryName;
    this.queryId = previous.map(QueryMetadata::queryId).orElse(UUID.randomUUID().toString());
    this.runId = UUID.randomUUID().toString();
    this.parallelism = parallelism;
    this.serviceOwned = serviceOwned;
  }

  /**
   * Reads the checkpoint location and plans a run of {@code queryName} on it.
   *
   * @param restoreFrom the snapshot to restore instead of the newest one, or null
   * @param maxParallelism the max parallelism the program is built with
   * @throws CheckpointLocationException if {@code restoreFrom} holds no snapshot or the location no
   *     metadata, if the location holds snapshots or epochs but no metadata, or epochs but no
   *     snapshot, or if committed epochs cannot be replayed exactly
   * @throws LakestreamException if a new query's parallelism exceeds its max parallelism
   */
  static StartPlan read(
      URI checkpointLocation,
      String queryName,
      String restoreFrom,
      int parallelism,
      int maxParallelism)
      throws IOException {
    Read read = Read.of(checkpointLocation, queryName, parallelism, false);
    Optional<RestorableSnapshot> newest = read.location().newestSnapshot();
    Optional<RestorableSnapshot> snapshot =
        restoreFrom == null ? newest : Optional.of(read.location().snapshotAt(restoreFrom));
    return read.plan(restoreFrom, snapshot, newest, maxParallelism);
  }

  /**
   * Plans a run whose snapshots a managed service stores and restores (Amazon Managed Service for
   * Apache Flink): the run restores {@code serviceRestore}, the snapshot the service gave Flink,
   * wherever it is stored, and the same checks as {@link #read} hold against it: the epochs
   * committed after it are replayed exactly, and a location with committed epochs refuses a start
   * without a snapshot. The location's own {@code state/} and {@code savepoints/}, if any, are
   * neither restored nor retired.
   *
   * @throws CheckpointLocationException as {@link #read}, with the service's settings to change
   */
  static StartPlan readForService(
      URI checkpointLocation,
      String queryName,
      Optional<String> serviceRestore,
      int parallelism,
      int maxParallelism)
      throws IOException {
    Read read = Read.of(checkpointLocation, queryName, parallelism, true);
    Optional<RestorableSnapshot> snapshot =
        serviceRestore.isEmpty()
            ? Optional.empty()
            : Optional.of(read.location().snapshotAt(serviceRestore.get()));
    return read.plan(serviceRestore.orElse(null), snapshot, snapshot, maxParallelism);
  }

  /** One reading of a checkpoint location, turned into a plan by {@link #plan}. */
  private record Read(
      URI checkpointLocation,
      CheckpointLocation location,
      Optional<QueryMetadata> metadata,
      List<Long> epochs,
      String queryName,
      int parallelism,
      boolean serviceOwned) {

    static Read of(URI checkpointLocation, String queryName, int parallelism, boolean service)
        throws IOException {
      CheckpointLocation location = new CheckpointLocation(checkpointLocation);
      Optional<QueryMetadata> metadata = location.readMetadata();
      List<Long> epochs = location.epochs().committedEpochs();
      return new Read(
          checkpointLocation, location, metadata, epochs, queryName, parallelism, service);
    }

    /**
     * @param restoreFrom the snapshot asked for (by the caller or the service), or null
     * @param newest the newest snapshot a later run may have taken (for the rewind)
     */
    StartPlan plan(
        String restoreFrom,
        Optional<RestorableSnapshot> snapshot,
        Optional<RestorableSnapshot> newest,
        int maxParallelism)
        throws IOException {
      if (restoreFrom != null && metadata.isEmpty()) {
        throw restoreIntoNewLocation(restoreFrom, location, serviceOwned);
      }
      ReplayPlan replay = rewindPlan(location, snapshot, newest, epochs);
      if (metadata.isEmpty() && (snapshot.isPresent() || !epochs.isEmpty())) {
        throw metadataMissing(location);
      }
      if (metadata.isPresent() && snapshot.isEmpty() && !epochs.isEmpty()) {
        throw snapshotsMissing(location, epochs.get(epochs.size() - 1), serviceOwned);
      }
      if (metadata.isEmpty() && parallelism > maxParallelism) {
        throw parallelismAboveMax(parallelism, maxParallelism);
      }
      StartPlan plan =
          new StartPlan(
              checkpointLocation,
              location,
              metadata,
              snapshot,
              replay,
              queryName,
              parallelism,
              serviceOwned);
      plan.warnIfRenamed();
      return plan;
    }
  }

  /** The location's query id (a new one for a new location). */
  String queryId() {
    return queryId;
  }

  /** A new id for this run. */
  String runId() {
    return runId;
  }

  /** The sink transaction app id: from the name the query had when it first ran, and its id. */
  String appId() {
    return QueryContext.appIdFor(originalName(), queryId);
  }

  /** The snapshot the run restores; empty when it starts from scratch. */
  Optional<RestorableSnapshot> snapshot() {
    return snapshot;
  }

  /** The epoch the run continues after (0 when it starts from scratch). */
  long restoredEpoch() {
    return snapshot.map(RestorableSnapshot::checkpointId).orElse(0L);
  }

  /** The committed epochs the run replays; {@link ReplayPlan#NONE} unless it rewinds. */
  ReplayPlan replay() {
    return replay;
  }

  /** Whether the location already belongs to the query (it has metadata). */
  boolean resumes() {
    return previous.isPresent();
  }

  CheckpointLocation location() {
    return location;
  }

  /**
   * Checks the built program against the location and decides the metadata it gets.
   *
   * @param fingerprint the program's fingerprint
   * @param inputPaths the directories its sources read
   * @param sourcesWithoutExactReplay its sources that cannot replay committed epochs exactly
   * @throws IncompatibleRestartException if the run replays epochs a source cannot replay exactly,
   *     the restart matrix refuses the change, or a sink is replaced while the snapshot is a
   *     checkpoint
   * @throws CheckpointLocationException if the location is inside an input path or a table
   */
  Admitted admit(
      QueryFingerprint fingerprint, List<URI> inputPaths, List<String> sourcesWithoutExactReplay) {
    return admit(fingerprint, inputPaths, sourcesWithoutExactReplay, Optional.empty(), false);
  }

  /**
   * As {@link #admit(QueryFingerprint, List, List)}, with the program's own plan (a {@link
   * PlannedDataflow}'s), which must also fit the plan of the location's last run; with {@code
   * upgradeCheck} the program is checked for an upgrade, which restores the savepoint it takes of
   * the running job rather than the newest snapshot now there.
   *
   * @throws IncompatibleRestartException also when the plan refuses the restart
   */
  Admitted admit(
      QueryFingerprint fingerprint,
      List<URI> inputPaths,
      List<String> sourcesWithoutExactReplay,
      Optional<DataflowPlan> plan,
      boolean upgradeCheck) {
    requireExactReplay(sourcesWithoutExactReplay);
    LocationNesting.check(checkpointLocation, inputPaths, tablePaths(fingerprint));
    Optional<String> planText = plan.map(DataflowPlan::text);
    if (previous.isEmpty()) {
      QueryMetadata first =
          new QueryMetadata(
              QueryMetadata.FORMAT_VERSION,
              queryId,
              queryName,
              Instant.now().toString(),
              runId,
              fingerprint);
      return new Admitted(this, first, false, planText);
    }
    QueryFingerprint before = previous.get().fingerprint();
    PlanVerdict verdict = planVerdict(plan);
    List<String> problems = new ArrayList<>(verdict.problems());
    problems.addAll(
        RestartCompatibility.problems(
            before, fingerprint, parallelism, verdict.decidedOperators()));
    if (!problems.isEmpty()) {
      throw new IncompatibleRestartException(problems);
    }
    boolean dropSinkState = dropsReplacedSinkState(before, fingerprint, upgradeCheck);
    return new Admitted(this, previous.get().nextRun(runId, fingerprint), dropSinkState, planText);
  }

  /**
   * The program's plan against the plan the location's last run recorded; no verdict when either
   * has none (a location from before plans were recorded, or a program without one).
   */
  private PlanVerdict planVerdict(Optional<DataflowPlan> plan) {
    PlanVerdict none = new PlanVerdict(List.of(), Set.of());
    if (plan.isEmpty()) {
      return none;
    }
    Optional<String> stored;
    try {
      stored = location.readPlan(previous.get().lastRunId());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Could not read the plan of run " + previous.get().lastRunId() + " in " + location, e);
    }
    if (stored.isEmpty()) {
      LOG.info(
          "Checkpoint location {} holds no plan of its last run {}: this restart is checked by"
              + " the query's fingerprint alone; the next one also by this run's plan",
          location,
          previous.get().lastRunId());
      return none;
    }
    return plan.get().restartFrom(stored.get());
  }

  /**
   * A program admitted to run on the location.
   *
   * @param plan the plan it was admitted by
   * @param metadata the metadata the location gets for this run
   * @param dropsReplacedSinkState the restore must drop the state of a replaced sink (no operator
   *     of the new program claims it)
   * @param planText the program's own plan, recorded for this run, if it has one
   */
  record Admitted(
      StartPlan plan,
      QueryMetadata metadata,
      boolean dropsReplacedSinkState,
      Optional<String> planText) {

    /**
     * Makes the location ready for the run; call it holding the location's lease. A new location
     * gets its metadata at once (its snapshots must never lack metadata); a rewind retires the
     * snapshots of the abandoned run; checkpoints older than the restored snapshot and all but the
     * newest {@value StartPlan#RETAINED_SAVEPOINTS} savepoints are deleted.
     *
     * @return the metadata to write once the run has completed a snapshot (a restart: until then
     *     the location's snapshots belong to the previous program), or empty when it is written
     */
    Optional<QueryMetadata> prepareLocation() throws IOException {
      Optional<QueryMetadata> pending = Optional.of(metadata);
      recordPlan();
      if (plan.resumes()) {
        plan.logResume();
      } else {
        plan.logNewQuery();
        plan.location.writeMetadata(metadata);
        pending = Optional.empty();
      }
      if (plan.snapshot.isPresent() && plan.serviceOwned) {
        plan.warnIfRewinds(plan.snapshot.get());
      } else if (plan.snapshot.isPresent()) {
        plan.retireSnapshots(plan.snapshot.get());
      }
      return pending;
    }

    /**
     * Records this run's plan before anything runs (before a new location's metadata, which must
     * never name a run without its plan), keeping only the plan of the location's last run
     * (restores are checked against it until this run's metadata replaces it) and this one.
     */
    private void recordPlan() throws IOException {
      String run = metadata.lastRunId();
      if (planText.isPresent()) {
        plan.location.writePlan(run, planText.get());
      }
      Set<String> keep = new TreeSet<>(Set.of(run));
      plan.previous.ifPresent(p -> keep.add(p.lastRunId()));
      plan.location.deletePlansExcept(keep);
    }
  }

  private void retireSnapshots(RestorableSnapshot restored) throws IOException {
    if (warnIfRewinds(restored)) {
      location.abandonSnapshotsAfter(restored.checkpointId(), runId);
    }
    location.deleteCheckpointsOlderThan(restored.checkpointId());
    location.pruneSavepoints(RETAINED_SAVEPOINTS, restored.path());
  }

  /** Logs a rewind to {@code restored}; returns whether the run rewinds. */
  private boolean warnIfRewinds(RestorableSnapshot restored) {
    if (!replay.isEmpty()) {
      LOG.warn(
          "Query '{}' rewinds to epoch {} ({}): epochs {}..{} were committed by a later run;"
              + " they are replayed exactly as committed (sinks skip them) and the later"
              + " run's snapshots are retired (where the checkpoint location holds them)",
          queryName,
          replay.restoredEpoch(),
          restored.path(),
          replay.restoredEpoch() + 1,
          replay.lastEpoch());
    }
    return !replay.isEmpty();
  }

  private void requireExactReplay(List<String> cannotReplay) {
    if (replay.isEmpty() || cannotReplay.isEmpty()) {
      return;
    }
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

  /**
   * A sink the restart matrix lets the query replace (file to Kafka, a renamed only sink, a sink of
   * another kind under the same uid) leaves state behind that the new program cannot take. Dropping
   * it is safe only when restoring a savepoint: stopping with a savepoint committed every epoch, so
   * nothing is pending in it.
   */
  private boolean dropsReplacedSinkState(
      QueryFingerprint before, QueryFingerprint after, boolean upgradeCheck) {
    Set<String> now = new TreeSet<>();
    after.sinks().forEach(sink -> now.add(sink.name() + " " + sink.kind()));
    List<String> replaced =
        before.sinks().stream()
            .filter(sink -> !now.contains(sink.name() + " " + sink.kind()))
            .map(SinkSpec::name)
            .toList();
    if (replaced.isEmpty() || snapshot.isEmpty() || upgradeCheck) {
      return !replaced.isEmpty() && upgradeCheck;
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
    return true;
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

  private String originalName() {
    return previous.map(QueryMetadata::queryName).orElse(queryName);
  }

  private void warnIfRenamed() {
    if (!originalName().equals(queryName)) {
      LOG.warn(
          "Checkpoint location {} belongs to query '{}'; running it as '{}' keeps its identity"
              + " and sink app id",
          location,
          originalName(),
          queryName);
    }
  }

  private void logResume() {
    LOG.info(
        "Query '{}' (id {}) resumes from {} on checkpoint location {}; sink app id {}",
        queryName,
        queryId,
        snapshot
            .map(sn -> sn.kind() + " " + sn.path() + " (epoch " + sn.checkpointId() + ")")
            .orElse("the beginning (no epoch completed yet)"),
        location,
        appId());
  }

  private void logNewQuery() {
    LOG.info(
        "Query '{}' starts from scratch: new checkpoint location {} (query id {}). Sources"
            + " begin at their starting positions; sink transactions use app id {}",
        queryName,
        location,
        queryId,
        appId());
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

  private static CheckpointLocationException restoreIntoNewLocation(
      String restoreFrom, CheckpointLocation location, boolean serviceOwned) {
    return new CheckpointLocationException(
        StateErrorClass.CHECKPOINT_LOCATION_NO_QUERY,
        "Cannot restore "
            + restoreFrom
            + ": checkpoint location "
            + location
            + " has no metadata, so it does not belong to a query yet. "
            + (serviceOwned
                ? "The service restores a snapshot of another checkpoint location (was the"
                    + " checkpoint location setting changed?): set it back, or start the"
                    + " application without a snapshot (SKIP_RESTORE_FROM_SNAPSHOT) for a new"
                    + " query."
                : "Restore into the checkpoint location the snapshot was taken from."));
  }

  private static CheckpointLocationException metadataMissing(CheckpointLocation location) {
    return new CheckpointLocationException(
        StateErrorClass.CHECKPOINT_LOCATION_CORRUPT,
        "Checkpoint location "
            + location
            + " holds snapshots or epochs but no metadata file: it was damaged or not written by"
            + " lakestream. Restore the metadata file, or use a new checkpoint location.");
  }

  private static CheckpointLocationException snapshotsMissing(
      CheckpointLocation location, long lastEpoch, boolean serviceOwned) {
    return new CheckpointLocationException(
        StateErrorClass.CHECKPOINT_LOCATION_SNAPSHOTS_MISSING,
        "Checkpoint location "
            + location
            + " has committed epochs up to "
            + lastEpoch
            + (serviceOwned
                ? " but the service started the application without a snapshot to restore"
                    + " (ApplicationRestoreType SKIP_RESTORE_FROM_SNAPSHOT, or snapshots"
                    + " disabled). Running now would silently start from scratch (sources from"
                    + " their starting positions, empty state). Start it with"
                    + " RESTORE_FROM_LATEST_SNAPSHOT, or start over deliberately with a new"
                    + " checkpoint location."
                : " but no restorable checkpoint or savepoint (state/chk-N or savepoints/ with"
                    + " _metadata): they were deleted or never retained. Running now would"
                    + " silently start from scratch (sources from their starting positions,"
                    + " empty state). Restore the snapshot files, or start over deliberately"
                    + " with a new checkpoint location."));
  }

  /**
   * RestartCompatibility reports this on a restart. Without this check a new query failed only at
   * submission ("Failed to execute job"), after its metadata was written: raising the max
   * parallelism was then refused as a restart change although nothing had ever run.
   */
  private static LakestreamException parallelismAboveMax(int parallelism, int max) {
    return new LakestreamException(
        QueryErrorClass.QUERY_INVALID_PARALLELISM,
        "parallelism "
            + parallelism
            + " exceeds the max parallelism "
            + max
            + " of this new query: lower the parallelism, or raise the max parallelism now"
            + " (it cannot change once the query has run)");
  }
}
