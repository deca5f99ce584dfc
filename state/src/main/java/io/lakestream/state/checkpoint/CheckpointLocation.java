package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.query.QueryMetadata;
import java.io.DataInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;

/**
 * One query's checkpoint location: a directory (local or {@code s3://}) that IS the query.
 *
 * <pre>
 *   metadata            query id, name, fingerprint (JSON)
 *   plans/RUN.json      a run's own plan, for dataflows that record one (a SQL query's compiled
 *                       plan); the plan of the metadata's last run is the one a restart must fit
 *   lock                lease of the run that is using the location
 *   state/chk-N/        Flink checkpoints (RocksDB incremental: state/shared, state/taskowned);
 *                       on a session cluster state/<job id>/chk-N (see checkpointDirs)
 *   savepoints/         savepoints (availableNow runs end with one)
 *   offsets/N/SOURCE    source positions at the end of epoch N (JSON)
 *   commits/N/SINK      what each sink committed for epoch N (JSON)
 *   progress/N          the epoch's progress report (JSON)
 *   runs/RUN/           per-run signals (sources caught up)
 *   schema-restarts     the schema-change restarts of the last hour (JSON, SchemaRestartLog)
 * </pre>
 *
 * Epoch N is Flink checkpoint N; ids continue across runs because every run restores the newest
 * snapshot. I/O failures surface as {@link IOException}; inconsistent contents as {@link
 * CheckpointLocationException}.
 */
@Internal
public final class CheckpointLocation implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String root;

  public CheckpointLocation(URI root) {
    if (!root.isAbsolute()) {
      throw new CheckpointLocationException(
          StateErrorClass.CHECKPOINT_LOCATION_INVALID_PATH,
          "checkpoint location must be an absolute URI such as file:///data/chk or"
              + " s3://bucket/chk, was "
              + root);
    }
    this.root = root.toString().replaceAll("/+$", "");
  }

  public URI uri() {
    return URI.create(root);
  }

  Path path(String child) {
    return new Path(root + "/" + child);
  }

  public Path stateDir() {
    return path("state");
  }

  public Path savepointsDir() {
    return path("savepoints");
  }

  /** The epoch log of this location. */
  public EpochLog epochs() {
    return new EpochLog(root);
  }

  public Optional<QueryMetadata> readMetadata() throws IOException {
    try {
      return JsonFiles.read(path("metadata"), QueryMetadata.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new CheckpointLocationException(
          StateErrorClass.CHECKPOINT_LOCATION_CORRUPT,
          "The metadata file of checkpoint location "
              + root
              + " is not readable ("
              + e.getOriginalMessage()
              + "). It was not written by lakestream or was damaged; restore it from a backup or"
              + " use a new checkpoint location.",
          e);
    }
  }

  public void writeMetadata(QueryMetadata metadata) throws IOException {
    JsonFiles.write(path("metadata"), metadata);
  }

  /** The plan run {@code runId} recorded ({@code plans/<run id>.json}), if it recorded one. */
  public Optional<String> readPlan(String runId) throws IOException {
    return JsonFiles.readBytes(planPath(runId))
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }

  /** Records the plan of run {@code runId}, replacing any it had. */
  public void writePlan(String runId, String plan) throws IOException {
    JsonFiles.writeBytes(planPath(runId), plan.getBytes(StandardCharsets.UTF_8));
  }

  /** Deletes the recorded plans of every run but {@code keep} (runs that no longer matter). */
  public void deletePlansExcept(Set<String> keep) throws IOException {
    for (FileStatus file : list(path("plans"))) {
      String name = file.getPath().getName();
      boolean kept = keep.stream().anyMatch(run -> name.equals(run + ".json"));
      if (!file.isDir() && !kept && !JsonFiles.isHidden(file.getPath())) {
        file.getPath().getFileSystem().delete(file.getPath(), false);
      }
    }
  }

  private Path planPath(String runId) {
    if (!runId.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException("not a run id: " + runId);
    }
    return path("plans/" + runId + ".json");
  }

  /** The query's schema-change restarts ({@link SchemaRestartLog#empty()} when it has none). */
  public SchemaRestartLog readSchemaRestarts() throws IOException {
    return JsonFiles.read(path("schema-restarts"), SchemaRestartLog.class)
        .orElse(SchemaRestartLog.empty());
  }

  public void writeSchemaRestarts(SchemaRestartLog log) throws IOException {
    JsonFiles.write(path("schema-restarts"), log);
  }

  /** True when the location holds anything at all (metadata, state, epochs). */
  public boolean isUsed() throws IOException {
    Path rootPath = new Path(root);
    FileSystem fs = rootPath.getFileSystem();
    if (!fs.exists(rootPath)) {
      return false;
    }
    FileStatus[] children = fs.listStatus(rootPath);
    return children != null && children.length > 0;
  }

  /**
   * The newest completed checkpoint or savepoint, by checkpoint id: what the next run restores.
   * Directories without {@code _metadata} (incomplete snapshots) are ignored.
   */
  public Optional<RestorableSnapshot> newestSnapshot() throws IOException {
    List<RestorableSnapshot> found = completedCheckpoints();
    found.addAll(completedSavepoints());
    return found.stream().max(Comparator.comparingLong(RestorableSnapshot::checkpointId));
  }

  /**
   * The newest completed checkpoint in {@code state/}, savepoints left out. Cheap: the id comes
   * from the directory name, no metadata file is read.
   */
  public Optional<RestorableSnapshot> newestCheckpoint() throws IOException {
    return completedCheckpoints().stream()
        .max(Comparator.comparingLong(RestorableSnapshot::checkpointId));
  }

  /** The savepoints in {@code savepoints/} that hold {@code _metadata}, with their ids. */
  private List<RestorableSnapshot> completedSavepoints() throws IOException {
    List<RestorableSnapshot> found = new ArrayList<>();
    for (FileStatus dir : list(savepointsDir())) {
      Path metadata = new Path(dir.getPath(), "_metadata");
      if (dir.isDir() && exists(metadata)) {
        found.add(
            new RestorableSnapshot(
                dir.getPath().toString(),
                readCheckpointId(metadata),
                RestorableSnapshot.Kind.SAVEPOINT));
      }
    }
    return found;
  }

  private List<RestorableSnapshot> completedCheckpoints() throws IOException {
    List<RestorableSnapshot> found = new ArrayList<>();
    for (FileStatus dir : checkpointDirs()) {
      if (exists(new Path(dir.getPath(), "_metadata"))) {
        found.add(
            new RestorableSnapshot(
                dir.getPath().toString(), checkpointIdOf(dir), RestorableSnapshot.Kind.CHECKPOINT));
      }
    }
    return found;
  }

  /**
   * The checkpoint directories {@code chk-N} in {@code state/}: directly there (where the job's
   * {@code state.checkpoints.create-subdir: false} is honoured: embedded runs), or one level down
   * under the job id (a session cluster applies that option from its own configuration only, so its
   * jobs write {@code state/<job id>/chk-N}). The shared files stay where they are.
   */
  private List<FileStatus> checkpointDirs() throws IOException {
    List<FileStatus> found = new ArrayList<>();
    for (FileStatus dir : list(stateDir())) {
      String name = dir.getPath().getName();
      if (!dir.isDir()) {
        continue;
      }
      if (name.matches("chk-\\d+")) {
        found.add(dir);
      } else if (name.matches("[0-9a-f]{32}")) {
        for (FileStatus child : list(dir.getPath())) {
          if (child.isDir() && child.getPath().getName().matches("chk-\\d+")) {
            found.add(child);
          }
        }
      }
    }
    return found;
  }

  private static long checkpointIdOf(FileStatus checkpointDir) {
    return Long.parseLong(checkpointDir.getPath().getName().substring(4));
  }

  /**
   * Deletes the checkpoints {@code chk-N} ({@link #checkpointDirs}) with {@code N < checkpointId}:
   * they are older than the snapshot being restored, which now owns the shared files they point to.
   */
  public void deleteCheckpointsOlderThan(long checkpointId) throws IOException {
    for (FileStatus dir : checkpointDirs()) {
      if (checkpointIdOf(dir) < checkpointId) {
        dir.getPath().getFileSystem().delete(dir.getPath(), true);
      }
    }
  }

  /**
   * The completed snapshot at {@code path} (a savepoint or checkpoint directory holding {@code
   * _metadata}, in this location or elsewhere).
   *
   * @throws CheckpointLocationException if there is no completed snapshot at {@code path}
   */
  public RestorableSnapshot snapshotAt(String path) throws IOException {
    Path dir = new Path(path);
    Path metadata = new Path(dir, "_metadata");
    if (!exists(metadata)) {
      throw new CheckpointLocationException(
          StateErrorClass.CHECKPOINT_LOCATION_SNAPSHOT_NOT_FOUND,
          "No completed savepoint or checkpoint at "
              + path
              + " (no _metadata file). List the snapshots with `lakestream describe-checkpoint "
              + root
              + "` and pass one of their paths.");
    }
    boolean checkpoint = dir.getName().matches("chk-\\d+");
    return new RestorableSnapshot(
        dir.toString(),
        readCheckpointId(metadata),
        checkpoint ? RestorableSnapshot.Kind.CHECKPOINT : RestorableSnapshot.Kind.SAVEPOINT);
  }

  /**
   * Retires the snapshots newer than {@code checkpointId} when a run restores an older one: their
   * checkpoint ids would collide with the new run's, and the next automatic restart must not pick
   * them. Checkpoints {@code state/chk-N} are deleted; savepoints are moved to {@code
   * abandoned/RUN_ID/} (kept for people, never restored automatically).
   */
  public void abandonSnapshotsAfter(long checkpointId, String runId) throws IOException {
    for (FileStatus dir : checkpointDirs()) {
      if (checkpointIdOf(dir) > checkpointId) {
        dir.getPath().getFileSystem().delete(dir.getPath(), true);
      }
    }
    Path abandoned = new Path(root + "/abandoned/" + runId);
    for (RestorableSnapshot savepoint : completedSavepoints()) {
      if (savepoint.checkpointId() > checkpointId) {
        Path dir = new Path(savepoint.path());
        FileSystem fs = dir.getFileSystem();
        fs.mkdirs(abandoned);
        Path target = new Path(abandoned, dir.getName());
        if (!fs.rename(dir, target)) {
          throw new IOException("Could not move savepoint " + dir + " to " + target);
        }
      }
    }
  }

  /**
   * Deletes all but the newest {@code keep} savepoints (by checkpoint id) in {@code savepoints/},
   * never the one at {@code inUse}. Savepoints are restored without claiming them, so they would
   * otherwise pile up, one per stop.
   */
  public void pruneSavepoints(int keep, String inUse) throws IOException {
    List<RestorableSnapshot> savepoints = completedSavepoints();
    savepoints.sort(Comparator.comparingLong(RestorableSnapshot::checkpointId).reversed());
    for (RestorableSnapshot old :
        savepoints.subList(Math.min(keep, savepoints.size()), savepoints.size())) {
      Path dir = new Path(old.path());
      if (!dir.equals(new Path(inUse))) {
        dir.getFileSystem().delete(dir, true);
      }
    }
  }

  /** Total bytes under {@code state/} and {@code savepoints/}. */
  public long stateSizeBytes() throws IOException {
    return size(stateDir()) + size(savepointsDir());
  }

  private long size(Path dir) throws IOException {
    long total = 0;
    for (FileStatus status : list(dir)) {
      total += status.isDir() ? size(status.getPath()) : status.getLen();
    }
    return total;
  }

  private static long readCheckpointId(Path metadata) throws IOException {
    try (InputStream in = metadata.getFileSystem().open(metadata);
        DataInputStream data = new DataInputStream(in)) {
      CheckpointMetadata loaded =
          Checkpoints.loadCheckpointMetadata(
              data, CheckpointLocation.class.getClassLoader(), metadata.getParent().toString());
      return loaded.getCheckpointId();
    }
  }

  /**
   * The children of {@code dir}; empty when it does not exist or vanishes while being listed (Flink
   * deletes subsumed checkpoints asynchronously, also after a job has ended).
   */
  static FileStatus[] list(Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem();
    try {
      if (!fs.exists(dir)) {
        return new FileStatus[0];
      }
      FileStatus[] statuses = fs.listStatus(dir);
      return statuses == null ? new FileStatus[0] : statuses;
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  private static boolean exists(Path path) throws IOException {
    return path.getFileSystem().exists(path);
  }

  @Override
  public String toString() {
    return root;
  }
}
