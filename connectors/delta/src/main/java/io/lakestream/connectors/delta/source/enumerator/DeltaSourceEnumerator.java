package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaChangeCommitException;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.source.EpochPositions;
import java.util.Map;
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
 * <p>Files a filter skips ({@link DeltaTableChanges} leaves them out) are never admitted; the
 * counts of files admitted and skipped since the enumerator started are the gauges {@value
 * #FILES_ADMITTED} and {@value #FILES_SKIPPED} of its metric group and the source's progress
 * metrics.
 *
 * <p>With an end version (availableNow, or a bounded batch read) nothing after it is admitted; once
 * all files up to it are admitted and every reader asks for more, an availableNow run reports
 * caught-up and a bounded read tells readers there are no more splits.
 */
@Internal
public final class DeltaSourceEnumerator
    extends DeltaFileEnumerator<DeltaAddedFile, DeltaSourceSplit, DeltaEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaSourceEnumerator.class);

  /**
   * The offsets key of the rows admitted so far: the {@code totalOffset} of the source's offsets
   * records, from which progress reports derive each epoch's input rows.
   */
  public static final String ROWS_ADMITTED = "rowsAdmitted";

  /** The metric of the files admitted since the enumerator started. */
  public static final String FILES_ADMITTED = "numFilesAdmitted";

  /** The metric of the files a filter skipped since the enumerator started. */
  public static final String FILES_SKIPPED = "numFilesSkipped";

  private final DeltaTableChanges changes;
  private boolean initialSnapshot;
  private DeltaChangeCommitException failAtEnd;

  /** The checkpoint that holds every row before {@link #failAtEnd}; fail once it completes. */
  private long failAfterCheckpoint = -1;

  private long rowsAdmitted;
  private volatile long filesAdmitted;
  private volatile long filesSkipped;

  public DeltaSourceEnumerator(
      SplitEnumeratorContext<DeltaSourceSplit> context,
      DeltaEnumeratorState state,
      DeltaTableChanges changes,
      DeltaSourceLimits limits,
      EpochPositions positions) {
    super(context, limits, positions, state, "Delta source could not read the table's log: ");
    this.changes = changes;
    this.initialSnapshot = state.initialSnapshot();
    this.rowsAdmitted = state.rowsAdmitted();
    if (context.metricGroup() != null) {
      context.metricGroup().gauge(FILES_ADMITTED, () -> filesAdmitted);
      context.metricGroup().gauge(FILES_SKIPPED, () -> filesSkipped);
    }
    // the snapshot (or the version being read) is rediscovered from the position
    if (initialSnapshot) {
      this.discoveredThrough = Long.MIN_VALUE;
    }
    seedPosition();
  }

  /** Worker thread: reads the files following what is discovered, if there is room. */
  @Override
  protected Discovery<DeltaAddedFile> discover() {
    long through = discoveredThrough;
    if (through == Long.MIN_VALUE) {
      DeltaTableChanges.Listing snapshot = changes.listSnapshot(nextVersion);
      return Discovery.of(through, nextVersion, snapshot.files(), snapshot.skipped());
    }
    if (!admission.mayDiscoverAfter(through)) {
      return null;
    }
    long to = admission.discoverThrough(through, changes.latestVersion());
    if (to <= through) {
      return null;
    }
    try {
      DeltaTableChanges.Listing versions = changes.listVersions(through + 1, to);
      return Discovery.of(through, to, versions.files(), versions.skipped());
    } catch (DeltaChangeCommitException e) {
      // deliver everything before the change commit, then fail there
      long before = e.version() - 1;
      DeltaTableChanges.Listing versions = changes.listVersions(through + 1, before);
      return new Discovery<>(through, before, versions.files(), versions.skipped(), e);
    }
  }

  /** Once a version that changes data is found, nothing after it is taken. */
  @Override
  protected boolean accepts(Discovery<DeltaAddedFile> found) {
    return failAtEnd == null;
  }

  @Override
  protected void accepted(Discovery<DeltaAddedFile> found) {
    failAtEnd = found.failure();
    filesSkipped += found.skipped();
    if (!found.files().isEmpty()) {
      LOG.debug("Discovered {} files through version {}", found.files().size(), found.through());
    }
  }

  @Override
  protected boolean isBeforePosition(DeltaAddedFile file) {
    return super.isBeforePosition(file) && file.initialSnapshot() == initialSnapshot;
  }

  @Override
  protected DeltaSourceSplit admitted(DeltaAddedFile file) {
    rowsAdmitted += Math.max(0, file.numRecords());
    filesAdmitted++;
    initialSnapshot = file.initialSnapshot();
    return DeltaSourceSplit.of(file);
  }

  @Override
  protected void addToPosition(Map<String, Long> position) {
    position.put("isStartingVersion", initialSnapshot ? 1L : 0L);
    position.put(ROWS_ADMITTED, rowsAdmitted);
  }

  @Override
  protected Map<String, ?> metrics() {
    return Map.of(FILES_ADMITTED, filesAdmitted, FILES_SKIPPED, filesSkipped);
  }

  @Override
  protected DeltaEnumeratorState checkpoint() {
    return new DeltaEnumeratorState(
        nextVersion, nextIndex, initialSnapshot, admission.pending(), rowsAdmitted);
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
    return super.snapshotState(checkpointId);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    super.notifyCheckpointComplete(checkpointId);
    if (failAfterCheckpoint >= 0 && checkpointId >= failAfterCheckpoint) {
      // the rows before the change commit are committed downstream: a restart from the next
      // version loses nothing
      throw new FlinkRuntimeException(failAtEnd.getMessage(), failAtEnd);
    }
  }
}
