package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.ReplayNotPossibleException;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.IncompatibleRestartException;
import io.lakestream.state.query.OperatorSpec;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.ReplayPlan;
import io.lakestream.state.query.SinkKind;
import io.lakestream.state.query.SinkSpec;
import io.lakestream.state.query.SourceSpec;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start plan on checkpoint locations on disk, without Flink: a new query, a resume, a rewind,
 * and every refusal, each before the location is changed.
 */
class StartPlanTest {
  private static final int MAX_PARALLELISM = 128;

  @TempDir Path dir;
  private Path root;
  private CheckpointLocation location;

  @BeforeEach
  void setUp() throws IOException {
    root = Files.createDirectories(dir.resolve("chk"));
    location = new CheckpointLocation(root.toUri());
  }

  private static QueryFingerprint fingerprint(SinkSpec sink, OperatorSpec... operators) {
    return new QueryFingerprint(
        List.of(new SourceSpec("orders-src", "kafka", "orders")),
        List.of(operators),
        List.of(sink),
        "rocksdb",
        MAX_PARALLELISM);
  }

  private static QueryFingerprint fingerprint() {
    return fingerprint(
        new SinkSpec("out", SinkKind.DELTA, "file:///lake/orders"),
        new OperatorSpec("dedup", "seen: ValueState<Long>"));
  }

  private static QueryMetadata previousRun(QueryFingerprint fingerprint) {
    return new QueryMetadata(
        QueryMetadata.FORMAT_VERSION,
        "q-1",
        "orders",
        "2025-01-01T00:00:00Z",
        "run-1",
        fingerprint);
  }

  /** A completed checkpoint {@code state/chk-N} (the id comes from the name). */
  private Path checkpoint(long id) throws IOException {
    Path chk = Files.createDirectories(root.resolve("state/chk-" + id));
    Files.createFile(chk.resolve("_metadata"));
    return chk;
  }

  /** A savepoint with a real Flink metadata file of checkpoint {@code id}. */
  private static Path savepoint(Path parent, String name, long id) throws IOException {
    Path sp = Files.createDirectories(parent.resolve(name));
    try (OutputStream out = Files.newOutputStream(sp.resolve("_metadata"));
        DataOutputStream data = new DataOutputStream(out)) {
      Checkpoints.storeCheckpointMetadata(new CheckpointMetadata(id, List.of(), List.of()), data);
    }
    return sp;
  }

  private static Map<String, Object> offsets(long position) {
    return Map.of("source", "orders-src", "offsets", Map.of("partition-0", position));
  }

  private StartPlan read(String queryName, String restoreFrom, int parallelism) throws IOException {
    return StartPlan.read(root.toUri(), queryName, restoreFrom, parallelism, MAX_PARALLELISM);
  }

  private StartPlan read() throws IOException {
    return read("orders", null, 1);
  }

  @Test
  void aNewQueryGetsItsIdentityAndItsMetadataAtOnce() throws IOException {
    StartPlan plan = read();

    assertThat(plan.resumes()).isFalse();
    assertThat(plan.snapshot()).isEmpty();
    assertThat(plan.restoredEpoch()).isZero();
    assertThat(plan.replay()).isSameAs(ReplayPlan.NONE);
    assertThat(plan.appId()).isEqualTo(QueryContext.appIdFor("orders", plan.queryId()));

    StartPlan.Admitted admitted = plan.admit(fingerprint(), List.of(), List.of());
    assertThat(admitted.metadata().queryId()).isEqualTo(plan.queryId());
    assertThat(admitted.metadata().queryName()).isEqualTo("orders");
    assertThat(admitted.metadata().lastRunId()).isEqualTo(plan.runId());
    assertThat(admitted.metadata().fingerprint()).isEqualTo(fingerprint());
    assertThat(admitted.dropsReplacedSinkState()).isFalse();
    assertThat(location.readMetadata()).as("nothing written before the lease").isEmpty();

    assertThat(admitted.prepareLocation()).as("nothing left pending").isEmpty();
    assertThat(location.readMetadata()).contains(admitted.metadata());
  }

  @Test
  void aRestartResumesFromTheNewestSnapshotAndKeepsItsIdentityUnderANewName() throws IOException {
    location.writeMetadata(previousRun(fingerprint()));
    checkpoint(2);
    Path newest = checkpoint(4);
    location.epochs().writeCommit(4, "out", Map.of("epoch", 4));

    StartPlan plan = read("orders_v2", null, 2);

    assertThat(plan.resumes()).isTrue();
    assertThat(plan.queryId()).isEqualTo("q-1");
    assertThat(plan.runId()).isNotEqualTo("run-1");
    assertThat(plan.appId()).isEqualTo(QueryContext.appIdFor("orders", "q-1"));
    assertThat(plan.snapshot().orElseThrow().kind()).isEqualTo(RestorableSnapshot.Kind.CHECKPOINT);
    assertThat(plan.restoredEpoch()).isEqualTo(4);
    assertThat(plan.replay().isEmpty()).isTrue();

    StartPlan.Admitted admitted = plan.admit(fingerprint(), List.of(), List.of());
    assertThat(admitted.metadata())
        .isEqualTo(previousRun(fingerprint()).nextRun(plan.runId(), fingerprint()));
    Optional<QueryMetadata> pending = admitted.prepareLocation();

    assertThat(pending).contains(admitted.metadata());
    assertThat(location.readMetadata())
        .as("the new metadata waits for this run's first snapshot")
        .contains(previousRun(fingerprint()));
    assertThat(root.resolve("state/chk-2")).doesNotExist();
    assertThat(newest).exists();
  }

  @Test
  void restoringAnOlderSavepointReplaysTheLaterRunsEpochsAndRetiresItsSnapshots()
      throws IOException {
    location.writeMetadata(previousRun(fingerprint()));
    Path older = savepoint(root.resolve("savepoints"), "savepoint-5", 5);
    Path later = checkpoint(8);
    EpochLog log = location.epochs();
    log.writeOffsets(6, "orders-src", offsets(60));
    log.writeOffsets(8, "orders-src", offsets(80));
    log.writeCommit(6, "out", Map.of("epoch", 6));
    log.writeCommit(8, "out", Map.of("epoch", 8));

    StartPlan plan = read("orders", older.toString(), 1);

    assertThat(plan.snapshot().orElseThrow().kind()).isEqualTo(RestorableSnapshot.Kind.SAVEPOINT);
    assertThat(plan.restoredEpoch()).isEqualTo(5);
    assertThat(plan.replay().restoredEpoch()).isEqualTo(5);
    assertThat(plan.replay().lastEpoch()).isEqualTo(8);
    assertThat(plan.replay().endOf("orders-src", 7)).containsEntry("partition-0", 80L);
    assertThatThrownBy(() -> plan.admit(fingerprint(), List.of(), List.of("orders-src")))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("would replay epochs 6..8")
        .hasMessageContaining("cannot replay them exactly as committed")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
    assertThat(later).as("a refusal changes nothing").exists();

    plan.admit(fingerprint(), List.of(), List.of()).prepareLocation();
    assertThat(later).as("the abandoned run's checkpoint").doesNotExist();
    assertThat(older).exists();
  }

  @Test
  void aRewindWithoutTheRecordedPositionsIsRefused() throws IOException {
    location.writeMetadata(previousRun(fingerprint()));
    Path older = savepoint(root.resolve("savepoints"), "savepoint-5", 5);
    checkpoint(8);

    assertThatThrownBy(() -> read("orders", older.toString(), 1))
        .isInstanceOf(ReplayNotPossibleException.class)
        .hasMessageContaining("Cannot restore epoch 5 exactly once")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("REPLAY_NOT_POSSIBLE");
  }

  @Test
  void restoringIntoALocationWithoutMetadataIsRefused() throws IOException {
    Path elsewhere = savepoint(dir.resolve("other"), "savepoint-3", 3);

    assertThatThrownBy(() -> read("orders", elsewhere.toString(), 1))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("has no metadata, so it does not belong to a query yet")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_NO_QUERY");
    assertThatThrownBy(() -> read("orders", dir.resolve("nothing").toString(), 1))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("No completed savepoint or checkpoint at")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_SNAPSHOT_NOT_FOUND");
  }

  @Test
  void snapshotsOrEpochsWithoutMetadataAreRefused() throws IOException {
    checkpoint(3);

    assertThatThrownBy(this::read)
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("holds snapshots or epochs but no metadata file")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_CORRUPT");
  }

  @Test
  void committedEpochsWithoutASnapshotAreRefused() throws IOException {
    location.writeMetadata(previousRun(fingerprint()));
    location.epochs().writeCommit(3, "out", Map.of("epoch", 3));

    assertThatThrownBy(this::read)
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("has committed epochs up to 3")
        .hasMessageContaining("no restorable checkpoint or savepoint")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_SNAPSHOTS_MISSING");
  }

  @Test
  void parallelismAboveTheMaxParallelismIsRefused() throws IOException {
    assertThatThrownBy(() -> read("orders", null, MAX_PARALLELISM + 1))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("exceeds the max parallelism 128 of this new query")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_PARALLELISM");
    assertThat(location.readMetadata()).isEmpty();

    location.writeMetadata(previousRun(fingerprint()));
    StartPlan restart = read("orders", null, MAX_PARALLELISM + 1);
    assertThatThrownBy(() -> restart.admit(fingerprint(), List.of(), List.of()))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("exceeds the query's max parallelism")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
  }

  @Test
  void aProgramTheRestartMatrixRefusesLeavesTheLocationAsItWas() throws IOException {
    location.writeMetadata(previousRun(fingerprint()));
    checkpoint(4);
    StartPlan plan = read();
    QueryFingerprint withoutDedup =
        fingerprint(new SinkSpec("out", SinkKind.DELTA, "file:///lake/orders"));

    assertThatThrownBy(() -> plan.admit(withoutDedup, List.of(), List.of()))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("dedup")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
    assertThat(location.readMetadata()).contains(previousRun(fingerprint()));
  }

  @Test
  void aReplacedSinkNeedsASavepointWhoseSinkStateIsThenDropped() throws IOException {
    QueryFingerprint toFiles = fingerprint(new SinkSpec("out", SinkKind.FILE, "file:///out"));
    QueryFingerprint toKafka = fingerprint(new SinkSpec("out", SinkKind.KAFKA, "orders-out"));
    location.writeMetadata(previousRun(toFiles));
    checkpoint(4);

    assertThatThrownBy(() -> read().admit(toKafka, List.of(), List.of()))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("is replaced, but the newest snapshot is a checkpoint")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");

    savepoint(root.resolve("savepoints"), "savepoint-6", 6);
    assertThat(read().admit(toKafka, List.of(), List.of()).dropsReplacedSinkState()).isTrue();
    assertThat(read().admit(toFiles, List.of(), List.of()).dropsReplacedSinkState()).isFalse();
  }

  @Test
  void aLocationInsideAnInputPathOrATableIsRefused() throws IOException {
    StartPlan plan = read();
    QueryFingerprint intoParent =
        fingerprint(new SinkSpec("out", SinkKind.DELTA, dir.toUri().toString()));

    assertThatThrownBy(() -> plan.admit(fingerprint(), List.of(dir.toUri()), List.of()))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("is inside a source's input path")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_OVERLAPS_DATA");
    assertThatThrownBy(() -> plan.admit(intoParent, List.of(), List.of()))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("is inside a table's data directory")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_OVERLAPS_DATA");
    assertThat(plan.admit(fingerprint(), List.of(URI.create("file:///landing")), List.of()))
        .isNotNull();
  }

  /**
   * A plan that refuses a restart from any stored plan but {@code accepts}, deciding {@code dedup}.
   */
  private static DataflowPlan plan(String text, String accepts) {
    return new DataflowPlan() {
      @Override
      public String text() {
        return text;
      }

      @Override
      public PlanVerdict restartFrom(String stored) {
        List<String> problems =
            stored.equals(accepts) ? List.of() : List.of("plan " + stored + " -> " + text);
        return new PlanVerdict(problems, java.util.Set.of("dedup"));
      }
    };
  }

  @Test
  void aPlanIsRecordedPerRunAndARestartMustFitThePlanOfTheLastRun() throws IOException {
    StartPlan first = read();
    first
        .admit(fingerprint(), List.of(), List.of(), Optional.of(plan("p1", "none")), false)
        .prepareLocation();
    assertThat(location.readPlan(first.runId())).contains("p1");

    QueryFingerprint dedupChanged =
        fingerprint(
            new SinkSpec("out", SinkKind.DELTA, "file:///lake/orders"),
            new OperatorSpec("dedup", "seen: MapState<String, Long>"));
    StartPlan refused = read();
    assertThatThrownBy(
            () ->
                refused.admit(
                    dedupChanged, List.of(), List.of(), Optional.of(plan("p2", "other")), false))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("plan p1 -> p2")
        .hasMessageNotContaining("state schema of operator 'dedup'");

    StartPlan second = read();
    StartPlan.Admitted admitted =
        second.admit(dedupChanged, List.of(), List.of(), Optional.of(plan("p2", "p1")), false);
    assertThat(admitted.prepareLocation()).isPresent(); // metadata waits for a snapshot
    assertThat(location.readPlan(second.runId())).contains("p2");
    assertThat(location.readPlan(first.runId())).contains("p1"); // still the last run's

    location.writeMetadata(admitted.metadata());
    read().admit(dedupChanged, List.of(), List.of()).prepareLocation();
    assertThat(location.readPlan(first.runId())).isEmpty();
    assertThat(location.readPlan(second.runId())).contains("p2");
  }
}
