package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.SchemaChangeFailure;
import io.lakestream.connectors.delta.DeltaChangeCommitException;
import io.lakestream.connectors.delta.DeltaStreamFile;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.source.split.DeltaFileSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * What the enumerators of the Delta source and the Delta change data feed source share: they
 * discover the table's files on a worker thread (polled every {@code pollInterval}), admit them in
 * {@code (version, index)} order through a {@link FileAdmission} within each epoch's limits, keep
 * the stream position (the next file's version and index) and report it to the query's offsets
 * records at each checkpoint, and end: with an end version, once every file up to it is handed out
 * and every reader asks for more, an availableNow run reports caught-up and a bounded read tells
 * its readers there are no more splits.
 *
 * <p>A subclass discovers its files, counts what it admits and adds its fields to the position and
 * the checkpoint. A discovery that fails fails the job with the message given to the constructor.
 *
 * @param <F> the file type
 * @param <S> the split type
 * @param <E> the checkpoint type
 */
@Internal
public abstract class DeltaFileEnumerator<
        F extends DeltaStreamFile, S extends DeltaFileSplit<F, S>, E>
    implements SplitEnumerator<S, E> {

  /**
   * The files one discovery round found: those after version {@code after}, through {@code
   * through}; {@code skipped} files a filter left out; {@code failure} when the round stopped
   * before a version that changes data.
   */
  protected record Discovery<T>(
      long after, long through, List<T> files, long skipped, DeltaChangeCommitException failure) {
    /** A round that read every version through {@code through}. */
    public static <T> Discovery<T> of(long after, long through, List<T> files) {
      return of(after, through, files, 0);
    }

    /** A round that read every version through {@code through}, skipping {@code skipped} files. */
    public static <T> Discovery<T> of(long after, long through, List<T> files, long skipped) {
      return new Discovery<>(after, through, files, skipped, null);
    }
  }

  protected final SplitEnumeratorContext<S> context;
  protected final DeltaSourceLimits limits;
  protected final EpochPositions positions;
  protected final FileAdmission<F, S> admission;
  private final String discoveryFailure;

  /** The version of the next file to admit. */
  protected long nextVersion;

  /** The index of the next file to admit within its version. */
  protected int nextIndex;

  /** The last version whose files are all discovered (admitted or queued in the admission). */
  protected volatile long discoveredThrough;

  private boolean finished;

  /**
   * Starts at the position of {@code state}, rediscovering its version, with its pending splits. A
   * subclass calls {@link #seedPosition()} once its own fields are set.
   *
   * @param discoveryFailure the start of the job's failure message when discovery fails
   */
  protected DeltaFileEnumerator(
      SplitEnumeratorContext<S> context,
      DeltaSourceLimits limits,
      EpochPositions positions,
      DeltaEnumeratorPosition<S> state,
      String discoveryFailure) {
    this.context = context;
    this.limits = limits;
    this.positions = positions;
    this.nextVersion = state.nextVersion();
    this.nextIndex = state.nextIndex();
    this.admission =
        new FileAdmission<>(context, limits, state.pending(), f -> f.size(), this::admit);
    this.discoveredThrough = nextVersion - 1;
    this.discoveryFailure = discoveryFailure;
  }

  /**
   * Worker thread: discovers the files following {@link #discoveredThrough}.
   *
   * @return what was found, or null if there is nothing to discover now
   * @throws DeltaTableException if the log cannot be read (fails the job)
   */
  protected abstract Discovery<F> discover();

  /** Counts an admitted file (the position has moved past it) and returns its split. */
  protected abstract S admitted(F file);

  /** Adds the subclass's fields to the stream position, after version and index. */
  protected abstract void addToPosition(Map<String, Long> position);

  /** The checkpoint of the current position and {@link FileAdmission#pending()}. */
  protected abstract E checkpoint();

  /** Whether to take what a discovery round found (the enumerator may have stopped taking). */
  protected boolean accepts(Discovery<F> found) {
    return true;
  }

  /** Called on the coordinator thread once a discovery round's files are queued. */
  protected void accepted(Discovery<F> found) {}

  /**
   * Metrics for the source's offsets records (the progress report's {@code metrics}); none by
   * default.
   */
  protected Map<String, ?> metrics() {
    return Map.of();
  }

  /** Whether {@code file}, found again by discovery, was admitted before the position. */
  protected boolean isBeforePosition(F file) {
    return file.version() == nextVersion && file.index() < nextIndex;
  }

  /** Gives the positions records the stream position known without any reader. */
  protected final void seedPosition() {
    positions.seed(position());
  }

  @Override
  public void start() {
    context.callAsync(
        this::discover, this::onDiscovered, 0, Math.max(1, limits.pollIntervalMillis()));
  }

  /** Coordinator thread. */
  private void onDiscovered(Discovery<F> found, Throwable error) {
    if (error != null) {
      FlinkRuntimeException failure =
          new FlinkRuntimeException(discoveryFailure + error.getMessage(), error);
      // the same job graph reads the same schema and fails again, under any restart strategy:
      // only a rebuilt query (which the runtime starts by itself) reads the recorded one
      throw recordedSchemaChange(error) ? new SuppressRestartsException(failure) : failure;
    }
    if (found != null && found.after() == discoveredThrough && accepts(found)) {
      List<F> after = new ArrayList<>(found.files().size());
      for (F file : found.files()) {
        if (!isBeforePosition(file)) {
          after.add(file);
        }
      }
      admission.addDiscovered(after);
      discoveredThrough = found.through();
      accepted(found);
    }
    assignPending();
  }

  private static boolean recordedSchemaChange(Throwable error) {
    return ExceptionUtils.findThrowable(
            error, t -> t instanceof SchemaChangeFailure change && change.recorded())
        .isPresent();
  }

  private void assignPending() {
    admission.assign();
    checkEnd();
  }

  /** Moves the position past an admitted file. */
  private S admit(F file) {
    nextVersion = file.version();
    nextIndex = file.index() + 1;
    return admitted(file);
  }

  /**
   * Done (bounded) once all up to the end version is handed out: each waiting reader, and every
   * later one, learns there are no more splits, without waiting for the others (a batch job may run
   * a source's subtasks one after another). Caught up (availableNow) once, in addition, every
   * reader is waiting: all it was handed is read.
   */
  private void checkEnd() {
    if (limits.endVersion() < 0
        || discoveredThrough < limits.endVersion()
        || !admission.drained()) {
      return;
    }
    if (limits.bounded()) {
      // a reader told so ends; splits a failed reader returns are handed out first, so a
      // restarted one still gets them
      for (int reader : List.copyOf(admission.waiting())) {
        context.signalNoMoreSplits(reader);
        admission.removeWaiting(reader);
      }
    } else if (!finished && admission.allReadersWaiting()) {
      finished = true;
      positions.onCaughtUp("table", 1);
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    admission.addWaiting(subtaskId);
    assignPending();
  }

  @Override
  public void addSplitsBack(List<S> splits, int subtaskId) {
    admission.addBack(splits, subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for work themselves (handleSplitRequest)
  }

  /** The stream position: {@code reservoirVersion}, {@code index}, then the subclass's fields. */
  protected final Map<String, Long> position() {
    Map<String, Long> position = new LinkedHashMap<>();
    position.put("reservoirVersion", nextVersion);
    position.put("index", (long) nextIndex);
    addToPosition(position);
    return position;
  }

  @Override
  public E snapshotState(long checkpointId) {
    E state = checkpoint();
    positions.onReport(new PositionReport(checkpointId, position()));
    // a new epoch starts: admit its share of files
    admission.startEpoch();
    context.runInCoordinatorThread(this::assignPending);
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, limits.endPosition(), recordedMetrics());
  }

  /**
   * The offsets record's metrics: {@link #metrics()} and the backlog Spark reports for Delta
   * sources, {@code numFilesOutstanding} and {@code numBytesOutstanding}: the files discovered and
   * not yet admitted to an epoch (versions past the discovery's read-ahead are not counted).
   */
  final Map<String, Object> recordedMetrics() {
    Map<String, Object> all = new TreeMap<>(metrics());
    all.put("numFilesOutstanding", admission.outstandingFiles());
    all.put("numBytesOutstanding", admission.outstandingBytes());
    return all;
  }

  @Override
  public void close() {}
}
