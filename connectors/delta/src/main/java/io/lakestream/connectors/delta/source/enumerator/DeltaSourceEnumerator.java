package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaChangeCommitException;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovers the data files of a Delta table (an initial snapshot, then each new version, polled
 * every {@code pollInterval}) and admits them, in order, as splits to readers that ask for work.
 *
 * <p>Per epoch (the work between two checkpoints) it admits at most {@code maxFilesPerTrigger}
 * files and stops admitting once {@code maxBytesPerTrigger} bytes are reached (soft: the file that
 * crosses it is admitted). Its checkpoint holds the position of the next file to admit and the
 * admitted files not yet handed out; together with the readers' states this is the whole stream
 * position. A version that changes existing data fails the job when the stream reaches it (the
 * error names the version and {@code skipChangeCommits}), and only once every row before it has
 * been read and a checkpoint covering them has completed, so sinks hold all of them and a new query
 * started from the next version continues without a gap.
 *
 * <p>With an end version (availableNow, or a bounded batch read) nothing after it is admitted; once
 * all files up to it are admitted and every reader asks for more, an availableNow run reports
 * caught-up and a bounded read tells readers there are no more splits.
 */
public final class DeltaSourceEnumerator
    implements SplitEnumerator<DeltaSourceSplit, DeltaEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaSourceEnumerator.class);

  /**
   * The offsets key of the rows admitted so far: the {@code totalOffset} of the source's offsets
   * records, from which progress reports derive each epoch's input rows.
   */
  public static final String ROWS_ADMITTED = "rowsAdmitted";

  private final SplitEnumeratorContext<DeltaSourceSplit> context;
  private final DeltaTableChanges changes;
  private final DeltaSourceLimits limits;
  private final EpochPositions positions;
  private final FileAdmission<DeltaAddedFile, DeltaSourceSplit> admission;

  private long nextVersion;
  private int nextIndex;
  private boolean initialSnapshot;

  /** The last version whose files are all discovered (admitted or queued in the admission). */
  private volatile long discoveredThrough;

  private DeltaChangeCommitException failAtEnd;

  /** The checkpoint that holds every row before {@link #failAtEnd}; fail once it completes. */
  private long failAfterCheckpoint = -1;

  private long rowsAdmitted;
  private boolean finished;

  public DeltaSourceEnumerator(
      SplitEnumeratorContext<DeltaSourceSplit> context,
      DeltaEnumeratorState state,
      DeltaTableChanges changes,
      DeltaSourceLimits limits,
      EpochPositions positions) {
    this.context = context;
    this.changes = changes;
    this.limits = limits;
    this.positions = positions;
    this.nextVersion = state.nextVersion();
    this.nextIndex = state.nextIndex();
    this.initialSnapshot = state.initialSnapshot();
    this.admission =
        new FileAdmission<>(context, limits, state.pending(), DeltaAddedFile::size, this::admit);
    this.rowsAdmitted = state.rowsAdmitted();
    // the snapshot (or the version being read) is rediscovered from the position
    this.discoveredThrough = initialSnapshot ? Long.MIN_VALUE : nextVersion - 1;
    positions.seed(position());
  }

  @Override
  public void start() {
    context.callAsync(
        this::discover, this::onDiscovered, 0, Math.max(1, limits.pollIntervalMillis()));
  }

  /** Worker thread: reads the files following what is discovered, if there is room. */
  private Discovery discover() {
    long through = discoveredThrough;
    if (through == Long.MIN_VALUE) {
      List<DeltaAddedFile> files = changes.snapshotFiles(nextVersion);
      return new Discovery(through, nextVersion, files, null);
    }
    if (!admission.mayDiscoverAfter(through)) {
      return null;
    }
    long to = admission.discoverThrough(through, changes.latestVersion());
    if (to <= through) {
      return null;
    }
    try {
      return new Discovery(through, to, changes.versionFiles(through + 1, to), null);
    } catch (DeltaChangeCommitException e) {
      // deliver everything before the change commit, then fail there
      long before = e.version() - 1;
      return new Discovery(through, before, changes.versionFiles(through + 1, before), e);
    }
  }

  private record Discovery(
      long after, long through, List<DeltaAddedFile> files, DeltaChangeCommitException failure) {}

  /** Coordinator thread. */
  private void onDiscovered(Discovery found, Throwable error) {
    if (error != null) {
      throw new FlinkRuntimeException(
          "Delta source could not read the table's log: " + error.getMessage(), error);
    }
    if (found != null && found.after() == discoveredThrough && failAtEnd == null) {
      List<DeltaAddedFile> after = new ArrayList<>(found.files().size());
      for (DeltaAddedFile file : found.files()) {
        boolean before =
            file.version() == nextVersion
                && file.initialSnapshot() == initialSnapshot
                && file.index() < nextIndex;
        if (!before) {
          after.add(file);
        }
      }
      admission.addDiscovered(after);
      discoveredThrough = found.through();
      failAtEnd = found.failure();
      if (!found.files().isEmpty()) {
        LOG.debug("Discovered {} files through version {}", found.files().size(), found.through());
      }
    }
    assignPending();
  }

  private void assignPending() {
    admission.assign();
    checkEnd();
  }

  /** Moves the position past an admitted file. */
  private DeltaSourceSplit admit(DeltaAddedFile file) {
    rowsAdmitted += Math.max(0, file.numRecords());
    nextVersion = file.version();
    nextIndex = file.index() + 1;
    initialSnapshot = file.initialSnapshot();
    return DeltaSourceSplit.of(file);
  }

  /** Caught up (availableNow) or done (bounded) once all up to the end version is handed out. */
  private void checkEnd() {
    if (finished
        || limits.endVersion() < 0
        || discoveredThrough == Long.MIN_VALUE
        || discoveredThrough < limits.endVersion()
        || !admission.drained()
        || !admission.allReadersWaiting()) {
      return;
    }
    finished = true;
    if (limits.bounded()) {
      for (int reader : admission.waiting()) {
        context.signalNoMoreSplits(reader);
      }
    } else {
      positions.onCaughtUp("table", 1);
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    admission.addWaiting(subtaskId);
    if (finished && limits.bounded()) {
      context.signalNoMoreSplits(subtaskId);
      return;
    }
    assignPending();
  }

  @Override
  public void addSplitsBack(List<DeltaSourceSplit> splits, int subtaskId) {
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
    position.put("isStartingVersion", initialSnapshot ? 1L : 0L);
    position.put(ROWS_ADMITTED, rowsAdmitted);
    return position;
  }

  /** Every file before the change commit is admitted and read: nothing is left to deliver. */
  private boolean drainedBeforeFailure() {
    return failAtEnd != null
        && admission.drained()
        && admission.waiting().containsAll(context.registeredReaders().keySet())
        && admission.allReadersWaiting();
  }

  @Override
  public DeltaEnumeratorState snapshotState(long checkpointId) {
    if (failAfterCheckpoint < 0 && drainedBeforeFailure()) {
      failAfterCheckpoint = checkpointId;
    }
    DeltaEnumeratorState state =
        new DeltaEnumeratorState(
            nextVersion, nextIndex, initialSnapshot, admission.pending(), rowsAdmitted);
    positions.onReport(new PositionReport(checkpointId, position()));
    // a new epoch starts: admit its share of files
    admission.startEpoch();
    context.runInCoordinatorThread(this::assignPending);
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, limits.endPosition());
    if (failAfterCheckpoint >= 0 && checkpointId >= failAfterCheckpoint) {
      // the rows before the change commit are committed downstream: a restart from the next
      // version loses nothing
      throw new FlinkRuntimeException(failAtEnd.getMessage(), failAtEnd);
    }
  }

  @Override
  public void close() {}
}
