package io.lakestream.connectors.delta.cdf.source.enumerator;

import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.cdf.DeltaChangeFile;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * <p>With an end version (availableNow) nothing after it is admitted; once all change files up to
 * it are handed out and every reader asks for more, it reports caught-up.
 */
public final class DeltaCdfSourceEnumerator
    implements SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> {

  /** The offsets key of the change files admitted so far (the offsets' {@code totalOffset}). */
  public static final String FILES_ADMITTED = "filesAdmitted";

  /** Versions read per discovery round. */
  private static final int VERSIONS_PER_POLL = 100;

  private final SplitEnumeratorContext<DeltaCdfSplit> context;
  private final DeltaChangeLog log;
  private final DeltaSourceLimits limits;
  private final EpochPositions positions;

  private long nextVersion;
  private int nextIndex;
  private final Deque<DeltaCdfSplit> pending;
  private final Deque<DeltaChangeFile> discovered = new ArrayDeque<>();
  private final Set<Integer> waiting = new LinkedHashSet<>();

  /**
   * The last version whose change files are all discovered (admitted or in {@link #discovered}).
   */
  private volatile long discoveredThrough;

  private volatile int discoveredCount;
  private long filesAdmitted;
  private int filesThisEpoch;
  private long bytesThisEpoch;
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
    this.pending = new ArrayDeque<>(state.pending());
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
  private Discovery discover() throws DeltaTableException {
    long through = discoveredThrough;
    if (discoveredCount >= limits.readAhead()
        || (limits.endVersion() >= 0 && through >= limits.endVersion())) {
      return null;
    }
    long to = Math.min(log.latestVersion(), through + VERSIONS_PER_POLL);
    if (limits.endVersion() >= 0) {
      to = Math.min(to, limits.endVersion());
    }
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
      for (DeltaChangeFile file : found.files()) {
        if (!(file.version() == nextVersion && file.index() < nextIndex)) {
          discovered.add(file);
        }
      }
      discoveredThrough = found.through();
      discoveredCount = discovered.size();
    }
    assignPending();
  }

  private void assignPending() {
    waiting.retainAll(context.registeredReaders().keySet());
    while (!waiting.isEmpty()) {
      DeltaCdfSplit split = pending.isEmpty() ? admit() : pending.poll();
      if (split == null) {
        break;
      }
      int reader = waiting.iterator().next();
      waiting.remove(reader);
      context.assignSplit(split, reader);
    }
    checkCaughtUp();
  }

  /** The next discovered file if this epoch's limits allow it, moving the position past it. */
  private DeltaCdfSplit admit() {
    if (discovered.isEmpty()) {
      return null;
    }
    if (!limits.ignoreLimits()) {
      if (limits.maxFilesPerTrigger() > 0 && filesThisEpoch >= limits.maxFilesPerTrigger()) {
        return null;
      }
      if (limits.maxBytesPerTrigger() > 0 && bytesThisEpoch >= limits.maxBytesPerTrigger()) {
        return null;
      }
    }
    DeltaChangeFile file = discovered.poll();
    discoveredCount = discovered.size();
    filesThisEpoch++;
    bytesThisEpoch += file.size();
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
        || !discovered.isEmpty()
        || !pending.isEmpty()
        || waiting.size() < context.currentParallelism()) {
      return;
    }
    caughtUp = true;
    positions.onCaughtUp("table", 1);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    waiting.add(subtaskId);
    assignPending();
  }

  @Override
  public void addSplitsBack(List<DeltaCdfSplit> splits, int subtaskId) {
    List<DeltaCdfSplit> back = new ArrayList<>(splits);
    Collections.reverse(back);
    back.forEach(pending::addFirst);
    waiting.remove(subtaskId);
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
            nextVersion, nextIndex, new ArrayList<>(pending), filesAdmitted);
    positions.onReport(new PositionReport(checkpointId, position()));
    // a new epoch starts: admit its share of files
    filesThisEpoch = 0;
    bytesThisEpoch = 0;
    context.runInCoordinatorThread(this::assignPending);
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(
        checkpointId,
        limits.endVersion() >= 0 ? Map.of("reservoirVersion", limits.endVersion()) : Map.of());
  }

  @Override
  public void close() {}
}
