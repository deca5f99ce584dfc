package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.notification.S3EventQueue;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovers new files in the input directory and hands them to readers, at most {@code
 * maxFilesPerTrigger} files (hard) and about {@code maxBytesPerTrigger} bytes (soft) per epoch.
 *
 * <p>Discovery runs at start and at the start of every epoch (one listing or poll per epoch, as
 * Spark lists once per micro-batch), again at once while a listing was cut at the page size, and
 * pauses while {@code readAhead} files wait: by listing the input path ({@link #listing}, see
 * {@link ListingDiscovery}) or from S3 event notifications ({@link #notifications}, see {@link
 * NotificationDiscovery}). A call that does not continue a cut one starts at most once per {@code
 * listingGapMillis} (half the checkpoint interval): after a long epoch Flink runs the checkpoints
 * it queued meanwhile back to back, and each of these epochs would otherwise list again, finding
 * nothing (the next regular epoch lists). Full listings hand out the files they find as candidates
 * outside the epoch limits, and the file ledger downstream drops those already read, so the
 * enumerator needs no set of seen files. The epoch admission is {@link FileBatchAdmission}.
 *
 * <p>availableNow: once every file of the run is handed out and every reader has emitted its files
 * (they all wait for work), the run is reported caught-up.
 *
 * <p>The checkpoint ({@link DiscoveryState}) holds the discovery's position and the files not yet
 * handed out; the offsets of each epoch hold {@value #FILES_ADMITTED} and {@value #LISTING_CALLS}.
 */
@Internal
public final class FileDiscoveryEnumerator
    implements SplitEnumerator<FileBatchSplit, DiscoveryState> {
  private static final Logger LOG = LoggerFactory.getLogger(FileDiscoveryEnumerator.class);

  /** Offsets key of the files handed out so far (the source's {@code totalOffset}). */
  public static final String FILES_ADMITTED = "filesAdmitted";

  /** Offsets key of the listing calls made so far. */
  public static final String LISTING_CALLS = "listingCalls";

  /** Metrics key of the notification messages received since the enumerator started. */
  public static final String NOTIFICATIONS_RECEIVED = "notificationsReceived";

  /** Metrics key of the notification messages deleted since the enumerator started. */
  public static final String NOTIFICATIONS_DELETED = "notificationsDeleted";

  /** Makes the discovery mode of an enumerator over its listings and admission. */
  private interface DiscoveryMode {
    FileDiscovery create(InputListing listing, FileBatchAdmission admission);
  }

  private final SplitEnumeratorContext<FileBatchSplit> context;
  private final DiscoverySettings settings;
  private final InputListing listing;
  private final FileBatchAdmission admission;
  private final FileDiscovery discovery;
  private final EpochPositions positions;
  private final LongSupplier clock;
  private boolean discovering;
  private boolean continuing;
  private long lastStartMillis = Long.MIN_VALUE;
  private boolean caughtUp;
  private int lastDiscoveredFiles;

  private FileDiscoveryEnumerator(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings,
      FileLister lister,
      EpochPositions positions,
      LongSupplier clock,
      DiscoveryMode mode) {
    this.context = context;
    this.clock = clock;
    this.settings = settings;
    this.listing = new InputListing(context, lister, settings.pageSize(), state);
    this.admission = new FileBatchAdmission(context, settings, state);
    this.discovery = mode.create(listing, admission);
    this.positions = positions;
    positions.seed(position());
    if (context.metricGroup() != null) {
      context.metricGroup().gauge("listingCalls", listing::listingCalls);
      context.metricGroup().gauge("numFilesOutstanding", admission::queued);
    }
  }

  /**
   * An enumerator that discovers new files by incremental listings of the input path.
   *
   * @param state the checkpoint to continue from ({@link DiscoveryState#initial} at first start)
   * @param lister lists the input path; closed with the enumerator
   * @param clock the current time (epoch ms), for maxFileAge and the backfill interval
   */
  public static FileDiscoveryEnumerator listing(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings,
      FileLister lister,
      EpochPositions positions,
      LongSupplier clock) {
    return new FileDiscoveryEnumerator(
        context,
        state,
        settings,
        lister,
        positions,
        clock,
        (listing, admission) -> new ListingDiscovery(settings, state, listing, admission, clock));
  }

  /**
   * An enumerator in file notification mode: new files come from the S3 event notifications in
   * {@code notifications}; {@code lister} runs the full listings.
   *
   * @param notifications the queue of S3 event notifications; closed with the enumerator
   * @throws IllegalArgumentException for an availableNow run (it lists: use {@link #listing})
   */
  public static FileDiscoveryEnumerator notifications(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings,
      FileLister lister,
      S3EventQueue notifications,
      EpochPositions positions,
      LongSupplier clock) {
    return new FileDiscoveryEnumerator(
        context,
        state,
        settings,
        lister,
        positions,
        clock,
        (listing, admission) ->
            new NotificationDiscovery(
                context, settings, state, listing, admission, notifications, clock));
  }

  @Override
  public void start() {
    discover();
  }

  /**
   * Starts a call unless one runs, enough files wait, this run discovered everything, or (not
   * continuing a cut call) the last call started less than {@code listingGapMillis} ago.
   */
  private void discover() {
    if (discovering
        || admission.queued() >= settings.readAhead()
        || discovery.exhausted()
        || !(continuing || gapPassed())) {
      return;
    }
    discovering = true;
    lastStartMillis = clock.getAsLong();
    discovery.next(this::onDiscovered);
  }

  private boolean gapPassed() {
    return settings.listingGapMillis() <= 0
        || lastStartMillis == Long.MIN_VALUE
        || clock.getAsLong() - lastStartMillis >= settings.listingGapMillis();
  }

  /** Coordinator thread. */
  private void onDiscovered(int filesFound, BooleanSupplier callAgain) {
    discovering = false;
    lastDiscoveredFiles = filesFound;
    assign();
    continuing = callAgain.getAsBoolean();
    if (continuing) {
      discover();
    }
  }

  private void assign() {
    admission.assign();
    checkCaughtUp();
  }

  private void checkCaughtUp() {
    if (caughtUp
        || !settings.availableNow()
        || !discovery.exhausted()
        || discovering
        || !admission.drained()
        || !admission.allReadersWaiting()) {
      return;
    }
    caughtUp = true;
    LOG.info(
        "Auto Loader handed out every file of this availableNow run ({} in all)",
        admission.filesAdmitted());
    positions.onCaughtUp("files", 1);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    admission.addWaiting(subtaskId);
    assign();
    discover();
  }

  @Override
  public void addSplitsBack(List<FileBatchSplit> splits, int subtaskId) {
    // already admitted: back as candidates (outside the limits; the ledger drops what was read)
    admission.addBack(splits, subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for work themselves
  }

  private Map<String, Long> position() {
    Map<String, Long> position = new LinkedHashMap<>();
    position.put(FILES_ADMITTED, admission.filesAdmitted());
    position.put(LISTING_CALLS, listing.listingCalls());
    return position;
  }

  private Map<String, Object> metrics() {
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("numFilesOutstanding", (long) admission.queued());
    metrics.put("numBytesOutstanding", admission.pendingBytes());
    metrics.put("listingCalls", listing.listingCalls());
    metrics.put("filesDiscoveredLastListing", (long) lastDiscoveredFiles);
    metrics.put("fullListings", listing.fullListings());
    metrics.put("cursor", discovery.cursor());
    discovery.addMetrics(metrics);
    return metrics;
  }

  @Override
  public DiscoveryState snapshotState(long checkpointId) {
    DiscoveryState state =
        new DiscoveryState(
            discovery.cursor(),
            listing.backfillCursor(),
            discovery.incrementalListings(),
            listing.lastBackfillMillis(),
            admission.ignoreBefore(),
            admission.filesAdmitted(),
            listing.listingCalls(),
            admission.pending(),
            admission.candidates());
    positions.onReport(new PositionReport(checkpointId, position()));
    discovery.onCheckpoint(checkpointId);
    // a new epoch starts: discover once and admit its share
    admission.startEpoch();
    context.runInCoordinatorThread(
        () -> {
          assign();
          discover();
        });
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, Map.of(), metrics());
    discovery.onCheckpointComplete(checkpointId);
  }

  @Override
  public void close() throws IOException {
    listing.close();
    discovery.close();
  }
}
