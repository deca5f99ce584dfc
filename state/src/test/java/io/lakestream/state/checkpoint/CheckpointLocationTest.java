package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.query.OperatorSpec;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
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
import java.util.Optional;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointLocationTest {

  @TempDir Path dir;
  private CheckpointLocation location;

  @BeforeEach
  void setUp() {
    location = new CheckpointLocation(dir.toUri());
  }

  private static QueryMetadata metadata() {
    QueryFingerprint fingerprint =
        new QueryFingerprint(
            List.of(new SourceSpec("orders-src", "kafka", "orders")),
            List.of(new OperatorSpec("dedup", "seen: ValueState<Long>")),
            List.of(new SinkSpec("out", SinkKind.DELTA, "s3://lake/orders")),
            "rocksdb",
            128);
    return new QueryMetadata(
        QueryMetadata.FORMAT_VERSION,
        "q-123",
        "orders",
        "2025-01-01T00:00:00Z",
        "run-1",
        fingerprint);
  }

  /** A completed checkpoint: Flink's {@code _metadata} (content irrelevant for chk-N). */
  private Path checkpoint(long id) throws IOException {
    Path chk = Files.createDirectories(dir.resolve("state/chk-" + id));
    Files.createFile(chk.resolve("_metadata"));
    return chk;
  }

  /** A savepoint directory with a real Flink metadata file of checkpoint {@code id}. */
  private Path savepoint(String name, long id) throws IOException {
    Path sp = Files.createDirectories(dir.resolve("savepoints/" + name));
    try (OutputStream out = Files.newOutputStream(sp.resolve("_metadata"));
        DataOutputStream data = new DataOutputStream(out)) {
      Checkpoints.storeCheckpointMetadata(new CheckpointMetadata(id, List.of(), List.of()), data);
    }
    return sp;
  }

  private static void write(Path file, int bytes) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[bytes]);
  }

  @Test
  void relativeUriIsRefused() {
    assertThatThrownBy(() -> new CheckpointLocation(URI.create("relative/chk")))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("absolute URI")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_INVALID_PATH");
  }

  @Test
  void trailingSlashesAreDropped() {
    CheckpointLocation s3 = new CheckpointLocation(URI.create("s3://bucket/queries/q1//"));

    assertThat(s3.uri()).isEqualTo(URI.create("s3://bucket/queries/q1"));
    assertThat(s3.toString()).isEqualTo("s3://bucket/queries/q1");
    assertThat(s3.stateDir().toString()).isEqualTo("s3://bucket/queries/q1/state");
    assertThat(s3.savepointsDir().toString()).isEqualTo("s3://bucket/queries/q1/savepoints");
  }

  @Test
  void metadataRoundTrips() throws IOException {
    QueryMetadata written = metadata();

    location.writeMetadata(written);

    assertThat(dir.resolve("metadata")).isRegularFile();
    assertThat(location.readMetadata()).contains(written);
  }

  @Test
  void metadataOfNextRunOverwritesAndKeepsIdentity() throws IOException {
    location.writeMetadata(metadata());
    QueryFingerprint changed = new QueryFingerprint(List.of(), List.of(), List.of(), "hashmap", 64);

    location.writeMetadata(metadata().nextRun("run-2", changed));

    QueryMetadata read = location.readMetadata().orElseThrow();
    assertThat(read.queryId()).isEqualTo("q-123");
    assertThat(read.createdAt()).isEqualTo("2025-01-01T00:00:00Z");
    assertThat(read.lastRunId()).isEqualTo("run-2");
    assertThat(read.fingerprint()).isEqualTo(changed);
  }

  @Test
  void metadataOfUnusedLocationIsEmpty() throws IOException {
    assertThat(location.readMetadata()).isEmpty();
  }

  @Test
  void metadataWithUnknownFieldsIsRead() throws IOException {
    location.writeMetadata(metadata());
    String json = Files.readString(dir.resolve("metadata"));
    Files.writeString(dir.resolve("metadata"), json.replaceFirst("\\{", "{\"future\": 1,"));

    assertThat(location.readMetadata()).contains(metadata());
  }

  @Test
  void unreadableMetadataGivesAdvice() throws IOException {
    Files.writeString(dir.resolve("metadata"), "this is not json");

    assertThatThrownBy(location::readMetadata)
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("The metadata file of checkpoint location " + location)
        .hasMessageContaining("is not readable")
        .hasMessageContaining("restore it from a backup or use a new checkpoint location")
        .hasCauseInstanceOf(com.fasterxml.jackson.core.JacksonException.class)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_CORRUPT");
  }

  @Test
  void emptyMetadataFileGivesAdvice() throws IOException {
    Files.createFile(dir.resolve("metadata"));

    assertThatThrownBy(location::readMetadata)
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("use a new checkpoint location")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_CORRUPT");
  }

  @Test
  void metadataWithWrongTypesGivesAdvice() throws IOException {
    Files.writeString(dir.resolve("metadata"), "{\"formatVersion\": \"one\"}");

    assertThatThrownBy(location::readMetadata)
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContaining("is not readable")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_CORRUPT");
  }

  @Test
  void isUsedOnlyWhenLocationHoldsSomething() throws IOException {
    CheckpointLocation missing = new CheckpointLocation(dir.resolve("missing").toUri());
    assertThat(missing.isUsed()).isFalse();
    assertThat(location.isUsed()).isFalse();

    Files.createDirectories(dir.resolve("state"));
    assertThat(location.isUsed()).isTrue();
  }

  @Test
  void isUsedAfterMetadataWasWritten() throws IOException {
    location.writeMetadata(metadata());

    assertThat(location.isUsed()).isTrue();
  }

  @Test
  void newestSnapshotOfEmptyLocationIsEmpty() throws IOException {
    assertThat(location.newestSnapshot()).isEmpty();
    Files.createDirectories(dir.resolve("state"));
    Files.createDirectories(dir.resolve("savepoints"));
    assertThat(location.newestSnapshot()).isEmpty();
  }

  @Test
  void checkpointWithoutMetadataIsIgnored() throws IOException {
    Files.createDirectories(dir.resolve("state/chk-7"));
    Files.createFile(dir.resolve("state/chk-7/some-state-file"));

    assertThat(location.newestSnapshot()).isEmpty();
  }

  @Test
  void checkpointsUnderTheJobIdDirectoryOfASessionClusterAreFoundAndRetired() throws IOException {
    String oldJob = "1a9e83514c4372e117f7a3581b9fe22f";
    String newJob = "282981fafe0c7861ffd0075dd0a639a1";
    Files.createDirectories(dir.resolve("state/" + oldJob + "/shared"));
    for (long id : new long[] {2, 3}) {
      Files.createDirectories(dir.resolve("state/" + oldJob + "/chk-" + id));
      Files.createFile(dir.resolve("state/" + oldJob + "/chk-" + id + "/_metadata"));
    }
    Path chk6 = Files.createDirectories(dir.resolve("state/" + newJob + "/chk-6"));
    Files.createFile(chk6.resolve("_metadata"));
    Files.createDirectories(dir.resolve("state/" + newJob + "/chk-7")); // in progress
    Files.createDirectories(dir.resolve("state/not-a-job/chk-9"));
    Files.createFile(dir.resolve("state/not-a-job/chk-9/_metadata"));

    RestorableSnapshot newest = location.newestSnapshot().orElseThrow();
    assertThat(newest.checkpointId()).isEqualTo(6);
    assertThat(Path.of(URI.create(newest.path()))).isEqualTo(chk6);
    assertThat(location.newestCheckpoint().orElseThrow().checkpointId()).isEqualTo(6);

    location.deleteCheckpointsOlderThan(3);
    assertThat(dir.resolve("state/" + oldJob + "/chk-2")).doesNotExist();
    assertThat(dir.resolve("state/" + oldJob + "/chk-3")).exists();
    assertThat(dir.resolve("state/" + oldJob + "/shared")).as("shared files stay").exists();
    location.abandonSnapshotsAfter(3, "run-2");
    assertThat(dir.resolve("state/" + newJob + "/chk-6")).doesNotExist();
    assertThat(location.newestSnapshot().orElseThrow().checkpointId()).isEqualTo(3);
  }

  @Test
  void newestCompleteCheckpointWins() throws IOException {
    checkpoint(3);
    Path chk4 = checkpoint(4);
    Files.createDirectories(dir.resolve("state/chk-5")); // in progress: no _metadata

    Optional<RestorableSnapshot> newest = location.newestSnapshot();

    assertThat(newest).isPresent();
    assertThat(newest.get().checkpointId()).isEqualTo(4);
    assertThat(newest.get().kind()).isEqualTo(RestorableSnapshot.Kind.CHECKPOINT);
    assertThat(Path.of(URI.create(newest.get().path()))).isEqualTo(chk4);
  }

  @Test
  void checkpointIdsCompareNumerically() throws IOException {
    checkpoint(9);
    checkpoint(10);
    checkpoint(2);

    assertThat(location.newestSnapshot().orElseThrow().checkpointId()).isEqualTo(10);
  }

  @Test
  void nonCheckpointEntriesInStateDirAreIgnored() throws IOException {
    checkpoint(1);
    Files.createDirectories(dir.resolve("state/shared"));
    Files.createDirectories(dir.resolve("state/taskowned"));
    Files.createDirectories(dir.resolve("state/chk-x"));
    Files.createFile(dir.resolve("state/chk-x/_metadata"));
    Files.createFile(dir.resolve("state/chk-99")); // a file, not a directory

    assertThat(location.newestSnapshot().orElseThrow().checkpointId()).isEqualTo(1);
  }

  @Test
  void savepointIdComesFromItsFlinkMetadata() throws IOException {
    savepoint("savepoint-x", 42);

    RestorableSnapshot newest = location.newestSnapshot().orElseThrow();

    assertThat(newest.checkpointId()).isEqualTo(42);
    assertThat(newest.kind()).isEqualTo(RestorableSnapshot.Kind.SAVEPOINT);
    assertThat(newest.path()).endsWith("savepoints/savepoint-x");
  }

  @Test
  void newerSavepointWinsOverOlderCheckpoint() throws IOException {
    checkpoint(41);
    savepoint("savepoint-x", 42);

    RestorableSnapshot newest = location.newestSnapshot().orElseThrow();

    assertThat(newest.kind()).isEqualTo(RestorableSnapshot.Kind.SAVEPOINT);
    assertThat(newest.checkpointId()).isEqualTo(42);
  }

  @Test
  void newerCheckpointWinsOverOlderSavepoint() throws IOException {
    checkpoint(41);
    savepoint("savepoint-x", 42);
    checkpoint(43);

    RestorableSnapshot newest = location.newestSnapshot().orElseThrow();

    assertThat(newest.kind()).isEqualTo(RestorableSnapshot.Kind.CHECKPOINT);
    assertThat(newest.checkpointId()).isEqualTo(43);
    assertThat(newest.path()).endsWith("state/chk-43");
  }

  @Test
  void savepointWithoutMetadataIsIgnored() throws IOException {
    checkpoint(5);
    Files.createDirectories(dir.resolve("savepoints/savepoint-in-progress"));

    assertThat(location.newestSnapshot().orElseThrow().checkpointId()).isEqualTo(5);
  }

  @Test
  void newestOfSeveralSavepointsWins() throws IOException {
    savepoint("savepoint-b", 7);
    savepoint("savepoint-a", 12);

    RestorableSnapshot newest = location.newestSnapshot().orElseThrow();

    assertThat(newest.checkpointId()).isEqualTo(12);
    assertThat(newest.path()).endsWith("savepoints/savepoint-a");
  }

  @Test
  void deleteCheckpointsOlderThanKeepsThatCheckpointNewerOnesAndOtherDirs() throws IOException {
    checkpoint(3);
    checkpoint(4);
    checkpoint(5);
    checkpoint(6);
    Files.createDirectories(dir.resolve("state/chk-2")); // incomplete, also older
    write(dir.resolve("state/shared/sst-1"), 10);
    savepoint("savepoint-x", 1);

    location.deleteCheckpointsOlderThan(5);

    try (var children = Files.list(dir.resolve("state"))) {
      assertThat(children.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("chk-5", "chk-6", "shared");
    }
    assertThat(dir.resolve("state/shared/sst-1")).exists();
    assertThat(dir.resolve("savepoints/savepoint-x/_metadata")).exists();
  }

  @Test
  void deleteCheckpointsOlderThanOnEmptyLocationDoesNothing() throws IOException {
    location.deleteCheckpointsOlderThan(100);

    assertThat(dir.resolve("state")).doesNotExist();
  }

  @Test
  void stateSizeCountsStateAndSavepointsOnly() throws IOException {
    assertThat(location.stateSizeBytes()).isZero();

    write(dir.resolve("state/chk-1/_metadata"), 100);
    write(dir.resolve("state/shared/a/b/sst"), 1000);
    write(dir.resolve("state/taskowned/x"), 10);
    write(dir.resolve("savepoints/savepoint-x/_metadata"), 5);
    write(dir.resolve("offsets/1/src"), 7777);
    write(dir.resolve("metadata"), 8888);

    assertThat(location.stateSizeBytes()).isEqualTo(1115);
  }

  @Test
  void epochsWriteBelowTheLocation() throws IOException {
    location.epochs().writeProgress(3, java.util.Map.of("epoch", 3));

    assertThat(dir.resolve("progress/3")).isRegularFile();
    assertThat(location.epochs().readProgress(3).orElseThrow().get("epoch").asLong()).isEqualTo(3);
  }

  @Test
  void isSerializable() throws Exception {
    checkpoint(8);

    CheckpointLocation copy = InstantiationUtil.clone(location);

    assertThat(copy.uri()).isEqualTo(location.uri());
    assertThat(copy.newestSnapshot().orElseThrow().checkpointId()).isEqualTo(8);
  }
}
