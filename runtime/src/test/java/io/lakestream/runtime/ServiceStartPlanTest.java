package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.IncompatibleRestartException;
import io.lakestream.state.query.OperatorSpec;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.SinkKind;
import io.lakestream.state.query.SinkSpec;
import io.lakestream.state.query.SourceSpec;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
 * The start plan when a managed service (MSF) stores and restores the snapshots: the snapshot the
 * service gave Flink, outside the checkpoint location, is what the run restores and what every
 * guard compares against (epoch, replay, metadata, restart matrix); the location's own snapshots
 * are neither restored nor touched.
 */
class ServiceStartPlanTest {
  private static final int MAX_PARALLELISM = 128;

  @TempDir Path dir;
  private Path root;
  private Path service;
  private CheckpointLocation location;

  @BeforeEach
  void setUp() throws IOException {
    root = Files.createDirectories(dir.resolve("chk"));
    service = Files.createDirectories(dir.resolve("service/snapshots"));
    location = new CheckpointLocation(root.toUri());
  }

  private static QueryFingerprint fingerprint(String backend) {
    return new QueryFingerprint(
        List.of(new SourceSpec("orders-src", "kafka", "orders")),
        List.of(new OperatorSpec("dedup", "seen: ValueState<Long>")),
        List.of(new SinkSpec("out", SinkKind.DELTA, "file:///lake/orders")),
        backend,
        MAX_PARALLELISM);
  }

  private static QueryMetadata previousRun() {
    return new QueryMetadata(
        QueryMetadata.FORMAT_VERSION,
        "q-1",
        "orders",
        "2025-01-01T00:00:00Z",
        "run-1",
        fingerprint("rocksdb"));
  }

  /** A snapshot with a real Flink metadata file of checkpoint {@code id}. */
  private static Path snapshot(Path parent, String name, long id) throws IOException {
    Path sp = Files.createDirectories(parent.resolve(name));
    try (OutputStream out = Files.newOutputStream(sp.resolve("_metadata"));
        DataOutputStream data = new DataOutputStream(out)) {
      Checkpoints.storeCheckpointMetadata(new CheckpointMetadata(id, List.of(), List.of()), data);
    }
    return sp;
  }

  private StartPlan read(Optional<Path> serviceRestore) throws IOException {
    return StartPlan.readForService(
        root.toUri(), "orders", serviceRestore.map(Path::toString), 1, MAX_PARALLELISM);
  }

  @Test
  void theServicesSnapshotIsRestoredAndTheLocationsOwnAreLeftAlone() throws IOException {
    location.writeMetadata(previousRun());
    location.epochs().writeCommit(7, "out", Map.of("epoch", 7));
    Path own = snapshot(root.resolve("savepoints"), "savepoint-9", 9);
    Path given = snapshot(service, "savepoint-7", 7);

    StartPlan plan = read(Optional.of(given));

    assertThat(plan.resumes()).isTrue();
    assertThat(plan.queryId()).isEqualTo("q-1");
    assertThat(plan.snapshot().orElseThrow().path()).isEqualTo(given.toString());
    assertThat(plan.snapshot().orElseThrow().kind()).isEqualTo(RestorableSnapshot.Kind.SAVEPOINT);
    assertThat(plan.restoredEpoch()).isEqualTo(7);
    assertThat(plan.replay().isEmpty())
        .as("the location's own newer savepoint is not the service's")
        .isTrue();
    plan.admit(fingerprint("rocksdb"), List.of(), List.of()).prepareLocation();
    assertThat(own).as("nothing of the location's snapshots is retired").exists();
    assertThat(given).exists();
  }

  @Test
  void anOlderServiceSnapshotReplaysTheEpochsCommittedAfterIt() throws IOException {
    location.writeMetadata(previousRun());
    EpochLog log = location.epochs();
    log.writeOffsets(6, "orders-src", Map.of("source", "orders-src", "offsets", Map.of("p", 60)));
    log.writeOffsets(8, "orders-src", Map.of("source", "orders-src", "offsets", Map.of("p", 80)));
    log.writeCommit(6, "out", Map.of("epoch", 6));
    log.writeCommit(8, "out", Map.of("epoch", 8));
    Path older = snapshot(service, "chk-5", 5);

    StartPlan plan = read(Optional.of(older));

    assertThat(plan.snapshot().orElseThrow().kind()).isEqualTo(RestorableSnapshot.Kind.CHECKPOINT);
    assertThat(plan.replay().restoredEpoch()).isEqualTo(5);
    assertThat(plan.replay().lastEpoch()).isEqualTo(8);
    assertThatThrownBy(() -> plan.admit(fingerprint("rocksdb"), List.of(), List.of("orders-src")))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("would replay epochs 6..8");
  }

  @Test
  void theRestartMatrixComparesTheProgramWithTheLocationsMetadata() throws IOException {
    location.writeMetadata(previousRun());
    location.epochs().writeCommit(3, "out", Map.of("epoch", 3));
    StartPlan plan = read(Optional.of(snapshot(service, "savepoint-3", 3)));

    assertThatThrownBy(() -> plan.admit(fingerprint("hashmap"), List.of(), List.of()))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("state backend");
    assertThat(location.readMetadata()).contains(previousRun());
  }

  @Test
  void committedEpochsWithoutAServiceSnapshotAreRefusedNamingTheRestoreType() throws IOException {
    location.writeMetadata(previousRun());
    location.epochs().writeCommit(3, "out", Map.of("epoch", 3));
    snapshot(root.resolve("savepoints"), "savepoint-3", 3);

    assertThatThrownBy(() -> read(Optional.empty()))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("has committed epochs up to 3")
        .hasMessageContaining("SKIP_RESTORE_FROM_SNAPSHOT")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_SNAPSHOTS_MISSING");
  }

  @Test
  void aServiceSnapshotForALocationWithoutMetadataIsRefused() throws IOException {
    Path given = snapshot(service, "savepoint-4", 4);

    assertThatThrownBy(() -> read(Optional.of(given)))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("another checkpoint location")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_NO_QUERY");
  }

  @Test
  void aFirstStartWithoutSnapshotIsANewQuery() throws IOException {
    StartPlan plan = read(Optional.empty());

    assertThat(plan.resumes()).isFalse();
    assertThat(plan.restoredEpoch()).isZero();
    plan.admit(fingerprint("rocksdb"), List.of(), List.of()).prepareLocation();
    assertThat(location.readMetadata()).isPresent();
  }
}
