package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.enumerator.DeltaFileEnumerator;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.source.EpochPositions;
import java.util.Map;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

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
@Internal
public final class DeltaCdfSourceEnumerator
    extends DeltaFileEnumerator<DeltaChangeFile, DeltaCdfSplit, DeltaCdfEnumeratorState> {

  /** The offsets key of the change files admitted so far (the offsets' {@code totalOffset}). */
  public static final String FILES_ADMITTED = "filesAdmitted";

  private final DeltaChangeLog log;
  private final long snapshotVersion;
  private long filesAdmitted;

  public DeltaCdfSourceEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context,
      DeltaCdfEnumeratorState state,
      DeltaChangeLog log,
      DeltaSourceLimits limits,
      EpochPositions positions) {
    super(
        context,
        limits,
        positions,
        state,
        "Delta CDF source could not read the table's change data feed: ");
    this.log = log;
    this.snapshotVersion = state.snapshotVersion();
    this.filesAdmitted = state.filesAdmitted();
    // the version being read is rediscovered from the position
    seedPosition();
  }

  /** Worker thread: reads the change files following what is discovered, if there is room. */
  @Override
  protected Discovery<DeltaChangeFile> discover() {
    long through = discoveredThrough;
    if (!admission.mayDiscoverAfter(through)) {
      return null;
    }
    if (through < snapshotVersion) { // the stream begins with this version's snapshot
      return Discovery.of(through, snapshotVersion, log.snapshotFiles(snapshotVersion));
    }
    long to = admission.discoverThrough(through, log.latestVersion());
    if (to <= through) {
      return null;
    }
    return Discovery.of(through, to, log.changeFiles(through + 1, to));
  }

  @Override
  protected DeltaCdfSplit admitted(DeltaChangeFile file) {
    filesAdmitted++;
    return DeltaCdfSplit.of(file);
  }

  @Override
  protected void addToPosition(Map<String, Long> position) {
    position.put(FILES_ADMITTED, filesAdmitted);
  }

  @Override
  protected DeltaCdfEnumeratorState checkpoint() {
    return new DeltaCdfEnumeratorState(
        nextVersion, nextIndex, admission.pending(), filesAdmitted, snapshotVersion);
  }
}
