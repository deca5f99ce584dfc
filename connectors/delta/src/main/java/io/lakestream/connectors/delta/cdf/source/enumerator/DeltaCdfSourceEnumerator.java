package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.delta.source.enumerator.FileAdmission;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * Discovers the change files of each new Delta table version (polled every {@code pollInterval},
 * see {@link DeltaChangeLog}) and admits them, in {@code (version, index)} order, as splits to
 * readers that ask for work.
 *
 * <p>Per epoch (the work between two checkpoints) it admits at most {@code maxFilesPerTrigger}
 * change files and stops admitting once {@code maxBytesPerTrigger} bytes are reached (soft: the
 * file that crosses it is admitted). Its checkpoint holds the position of the next file to admit
 * and the admitted files not yet handed out; together with the readers' states (rows emitted of
 * their current file) this is the whole stream position. A version without the change data feed
 * enabled, or an unreadable log, fails the job with the log reader's message.
 *
 * <p>A stream that begins with a snapshot ({@link DeltaCdfEnumeratorState#snapshotVersion()}) first
 * admits that version's data files as inserts, then the change files of later versions; a position
 * {@code (snapshotVersion, i)} is the i-th file of the snapshot.
 *
 * <p>With an end version (availableNow) nothing after it is admitted; once all change files up to
 * it are handed out and every reader asks for more, it reports caught-up.
 */
public final class DeltaCdfSourceEnumerator
    implements SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> {

  /** The offsets key of the change files admitted so far (the offsets' {@code totalOffset}). */
  public static final String FILES_ADMITTED = "filesAdmitted";

  private final SplitEnumeratorContext<DeltaCdfSplit> context;
  private final DeltaChangeLog log;
  private final DeltaSourceLimits limits;
  private final EpochPositions positions;
  private final FileAdmission<DeltaChangeFile, DeltaCdfSplit> admission;

  private final long snapshotVersion;
  private long nextVersion;
  private int nextIndex;

  /** The last version whose change files are all discovered (admitted or queued to admit). */
  private volatile long discoveredThrough;

  private long filesAdmitted;
  private boolean caughtUp;

  public DeltaCdfSourceEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context,
      DeltaCdfEnumeratorState state,
      DeltaChangeLog log,
      DeltaSourceLimits limits,
      EpochPositions positions) {
    this.context = context;
    this.log = log;
    this.limits = limits;
    this.positions = positions;
    this.nextVersion = state.nextVersion();
    this.nextIndex = state.nextIndex();
    this.snapshotVersion = state.snapshotVersion();
    this.admission =
        new FileAdmission<>(context, limits, state.pending(), DeltaChangeFile::size, this::admit);
    this.filesAdmitted = state.filesAdmitted();
    // the version being read is rediscovered from the position
    this.discoveredThrough = nextVersion - 1;
    positions.seed(position());
  }

  @Override
  public void start() {
    context.callAsync(
        this::discover, this::onDiscovered, 0, Math.max(1, limits.pollIntervalMillis()));
  }

  /** Worker thread: reads the change files following what is discovered, if there is room. */
  private Discovery discover() {
    long through = discoveredThrough;
    if (!admission.mayDiscoverAfter(through)) {
      return null;
    }
    if (through < snapshotVersion) { // the stream begins with this version's snapshot
      return new Discovery(through, snapshotVersion, log.snapshotFiles(snapshotVersion));
    }
    long to = admission.discoverThrough(through, log.latestVersion());
    if (to <= through) {
      return null;
    }
    return new Discovery(through, to, log.changeFiles(through + 1, to));
  }

  private record Discovery(long after, long through, List<DeltaChangeFile> files) {}

  /** Coordinator thread. */
  private void onDiscovered(Discovery found, Throwable error) {
    if (error != null) {
      throw new FlinkRuntimeException(
          "Delta CDF source could not read the table's change data feed: " + error.getMessage(),
          error);
    }
    if (found != null && found.after() == discoveredThrough) {
      List<DeltaChangeFile> after = new ArrayList<>(found.files().size());
      for (DeltaChangeFile file : found.files()) {
        if (!(file.version() == nextVersion && file.index() < nextIndex)) {
          after.add(file);
        }
      }
      admission.addDiscovered(after);
      discoveredThrough = found.through();
    }
    assignPending();
  }

  private void assignPending() {
    admission.assign();
    checkCaughtUp();
  }

  /** Moves the position past an admitted change file. */
  private DeltaCdfSplit admit(DeltaChangeFile file) {
    filesAdmitted++;
    nextVersion = file.version();
    nextIndex = file.index() + 1;
    return DeltaCdfSplit.of(file);
  }

  /** availableNow: caught up once every change file up to the end version is handed out. */
  private void checkCaughtUp() {
    if (caughtUp
        || limits.endVersion() < 0
        || discoveredThrough < limits.endVersion()
        || !admission.drained()
        || !admission.allReadersWaiting()) {
      return;
    }
    caughtUp = true;
    positions.onCaughtUp("table", 1);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    admission.addWaiting(subtaskId);
    assignPending();
  }

  @Override
  public void addSplitsBack(List<DeltaCdfSplit> splits, int subtaskId) {
    admission.addBack(splits, subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for work themselves (handleSplitRequest)
  }

  private Map<String, Long> position() {
    Map<String, Long> position = new LinkedHashMap<>();
    position.put("reservoirVersion", nextVersion);
    position.put("index", (long) nextIndex);
    position.put(FILES_ADMITTED, filesAdmitted);
    return position;
  }

  @Override
  public DeltaCdfEnumeratorState snapshotState(long checkpointId) {
    DeltaCdfEnumeratorState state =
        new DeltaCdfEnumeratorState(
            nextVersion, nextIndex, admission.pending(), filesAdmitted, snapshotVersion);
    positions.onReport(new PositionReport(checkpointId, position()));
    // a new epoch starts: admit its share of files
    admission.startEpoch();
    context.runInCoordinatorThread(this::assignPending);
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, limits.endPosition());
  }

  @Override
  public void close() {}
}
