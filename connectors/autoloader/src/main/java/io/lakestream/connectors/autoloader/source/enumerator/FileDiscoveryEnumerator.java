package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.discovery.FileListing;
import io.lakestream.connectors.autoloader.notification.S3EventQueue;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovers new files in the input directory and hands them to readers, at most {@code
 * maxFilesPerTrigger} files (hard) and about {@code maxBytesPerTrigger} bytes (soft) per epoch.
 *
 * <p>Listing: at start and at the start of every epoch (one listing per epoch, as Spark lists once
 * per micro-batch), and again at once while a listing was cut at the page size. Listings are
 * incremental: they start after the greatest key seen so far (the cursor), so on S3 they cost one
 * request per 1,000 new files. A file written with a key below the cursor (out of lexical order) is
 * missed by them; a full listing every {@code incrementalListingsPerBackfill} incremental listings,
 * or every {@code backfillInterval}, finds it. A full listing runs page by page up to the cursor;
 * the files it finds are handed out as candidates outside the epoch limits, and the file ledger
 * downstream drops those already read, so the enumerator needs no set of seen files.
 *
 * <p>File notification mode ({@code notifications} given): instead of incremental listings, the
 * enumerator receives S3 event notifications from an SQS queue and takes the files they announce as
 * new files (same limits, same ledger downstream, so a repeated notification is read once); it
 * long-polls again at once while readers wait for work or the queue has more. Full listings still
 * run every {@code backfillInterval} (and once at the first start with {@code
 * includeExistingFiles}), covering the whole input path, to find files whose event was lost. A
 * message is deleted from the queue only when a checkpoint that holds its files (still pending
 * here, in a reader's split, or read into the ledger) completed; until then it stays hidden for the
 * queue's visibility timeout, so a query that fails before that checkpoint gets it again and the
 * ledger drops what was already read.
 *
 * <p>availableNow: files modified up to the run's start are listed once (the cursor does not move
 * past a later file, which the next run will find), handed out under the epoch limits, and once
 * every reader has emitted them the run is reported caught-up.
 */
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

  private static final int POLL_WAIT_SECONDS = 1;

  private static final int FILES_PER_SPLIT = 100;

  private final SplitEnumeratorContext<FileBatchSplit> context;
  private final DiscoverySettings settings;
  private final FileLister lister;
  private final EpochPositions positions;
  private final LongSupplier clock;
  private final S3EventQueue notifications;
  private List<String> receiptsThisEpoch = new ArrayList<>();
  private final TreeMap<Long, List<String>> receiptsByCheckpoint = new TreeMap<>();
  private long notificationsReceived;
  private long notificationsDeleted;

  private String cursor;
  private String backfillCursor;
  private int incrementalListings;
  private long lastBackfillMillis;
  private final long ignoreBefore;
  private long filesAdmitted;
  private long listingCalls;
  private final Deque<DiscoveredFile> pending;
  private final Deque<DiscoveredFile> candidates;
  private final Set<String> queuedKeys = new HashSet<>();

  private final Set<Integer> waiting = new LinkedHashSet<>();
  private boolean listing;
  private String scanCursor;
  private boolean cursorFrozen;
  private boolean listedAll;
  private boolean caughtUp;
  private int lastListingFiles;
  private long fullListings;
  private int filesThisEpoch;
  private long bytesThisEpoch;

  public FileDiscoveryEnumerator(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings,
      FileLister lister,
      EpochPositions positions,
      LongSupplier clock) {
    this(context, state, settings, lister, null, positions, clock);
  }

  /**
   * @param notifications the queue of S3 event notifications (file notification mode), or null to
   *     discover new files by incremental listings
   */
  public FileDiscoveryEnumerator(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoveryState state,
      DiscoverySettings settings,
      FileLister lister,
      S3EventQueue notifications,
      EpochPositions positions,
      LongSupplier clock) {
    this.notifications = notifications;
    this.context = context;
    this.settings = settings;
    this.lister = lister;
    this.positions = positions;
    this.clock = clock;
    this.cursor = state.cursor();
    this.backfillCursor = state.backfillCursor();
    this.incrementalListings = state.incrementalListings();
    this.lastBackfillMillis = state.lastBackfillMillis();
    this.ignoreBefore = state.ignoreBefore();
    this.filesAdmitted = state.filesAdmitted();
    this.listingCalls = state.listingCalls();
    this.pending = new ArrayDeque<>(state.pending());
    this.candidates = new ArrayDeque<>(state.candidates());
    pending.forEach(f -> queuedKeys.add(f.key));
    candidates.forEach(f -> queuedKeys.add(f.key));
    this.scanCursor = cursor;
    positions.seed(position());
    if (context.metricGroup() != null) {
      context.metricGroup().gauge("listingCalls", () -> listingCalls);
      context.metricGroup().gauge("numFilesOutstanding", () -> pending.size() + candidates.size());
      if (notifications != null) {
        context.metricGroup().gauge(NOTIFICATIONS_RECEIVED, () -> notificationsReceived);
      }
    }
  }

  @Override
  public void start() {
    list();
  }

  private record Request(String after, boolean full, boolean poll) {
    Request(String after, boolean full) {
      this(after, full, false);
    }
  }

  /** Starts a listing unless one runs, enough files wait, or an availableNow run listed all. */
  private void list() {
    if (listing
        || pending.size() + candidates.size() >= settings.readAhead()
        || (settings.availableNow() && listedAll)) {
      return;
    }
    Request request = nextRequest();
    listing = true;
    if (request.poll()) {
      int room = settings.readAhead() - pending.size() - candidates.size();
      context.callAsync(
          () -> notifications.receive(room, POLL_WAIT_SECONDS),
          (page, error) -> onNotified(page, error));
      return;
    }
    context.callAsync(
        () -> lister.listAfter(request.after(), settings.pageSize()),
        (page, error) -> onListed(request, page, error));
  }

  private Request nextRequest() {
    if (settings.availableNow()) {
      return new Request(scanCursor, false);
    }
    if (backfillCursor != null) {
      return new Request(backfillCursor, true);
    }
    long now = clock.getAsLong();
    if (notifications != null) {
      boolean firstWithExisting = lastBackfillMillis == 0 && ignoreBefore == Long.MIN_VALUE;
      boolean due =
          firstWithExisting
              || (settings.backfillIntervalMillis() > 0
                  && now - lastBackfillMillis >= settings.backfillIntervalMillis());
      if (!due) {
        return new Request(cursor, false, true);
      }
      backfillCursor = "";
      lastBackfillMillis = now;
      fullListings++;
      return new Request("", true);
    }
    int every = settings.incrementalListingsPerBackfill();
    boolean due =
        !cursor.isEmpty()
            && ((every > 0 && incrementalListings >= every)
                || (settings.backfillIntervalMillis() > 0
                    && now - lastBackfillMillis >= settings.backfillIntervalMillis()));
    if (due) {
      backfillCursor = "";
      lastBackfillMillis = now;
      incrementalListings = 0;
      fullListings++;
      return new Request("", true);
    }
    return new Request(cursor, false);
  }

  /** Coordinator thread. */
  private void onListed(Request request, FileListing page, Throwable error) {
    listing = false;
    if (error != null) {
      throw new FlinkRuntimeException(
          "Auto Loader could not list its input path: " + error.getMessage(), error);
    }
    listingCalls += page.calls();
    lastListingFiles = page.files().size();
    long now = clock.getAsLong();
    if (request.full()) {
      onFullPage(page, now);
    } else {
      onIncrementalPage(page, now);
    }
    assign();
    if (page.truncated()) {
      list();
    }
  }

  /** Coordinator thread. */
  private void onNotified(S3EventQueue.Page page, Throwable error) {
    listing = false;
    if (error != null) {
      throw new FlinkRuntimeException(
          "Auto Loader could not receive file notifications: " + error.getMessage(), error);
    }
    notificationsReceived += page.receiptHandles().size();
    receiptsThisEpoch.addAll(page.receiptHandles());
    long now = clock.getAsLong();
    for (DiscoveredFile file : page.files()) {
      if (accepted(file, now) && queuedKeys.add(file.key)) {
        pending.add(file);
      }
    }
    lastListingFiles = page.files().size();
    assign();
    // long-poll again while the queue has more, or while readers wait for work: an event is
    // picked up within a poll's wait, not at the next epoch
    if (page.more() || (pending.isEmpty() && candidates.isEmpty() && !waiting.isEmpty())) {
      list();
    }
  }

  private void onFullPage(FileListing page, long now) {
    for (DiscoveredFile file : page.files()) {
      // with notifications there is no cursor: a full listing covers the whole input path
      if (notifications == null && file.key.compareTo(cursor) > 0) {
        backfillCursor = null; // the rest is the incremental listings' part
        return;
      }
      if (accepted(file, now) && queuedKeys.add(file.key)) {
        candidates.add(file);
      }
    }
    backfillCursor = page.truncated() ? page.lastKey(backfillCursor) : null;
  }

  private void onIncrementalPage(FileListing page, long now) {
    incrementalListings++;
    for (DiscoveredFile file : page.files()) {
      if (settings.availableNow() && file.modificationTime > settings.availableNowStartMillis()) {
        cursorFrozen = true; // arrived after the run started: the next run lists it
        continue;
      }
      if (!cursorFrozen) {
        cursor = file.key;
      }
      if (accepted(file, now) && queuedKeys.add(file.key)) {
        pending.add(file);
      }
    }
    if (!page.files().isEmpty()) {
      LOG.debug("Listed {} files after {}", page.files().size(), scanCursor);
    }
    scanCursor = page.lastKey(scanCursor);
    if (!page.truncated()) {
      listedAll = true;
    }
  }

  private boolean accepted(DiscoveredFile file, long now) {
    return file.modificationTime >= ignoreBefore
        && (settings.maxFileAgeMillis() <= 0
            || file.modificationTime >= now - settings.maxFileAgeMillis());
  }

  private void assign() {
    waiting.retainAll(context.registeredReaders().keySet());
    while (!waiting.isEmpty()) {
      FileBatchSplit split = nextSplit();
      if (split == null) {
        break;
      }
      int reader = waiting.iterator().next();
      waiting.remove(reader);
      context.assignSplit(split, reader);
    }
    checkCaughtUp();
  }

  /** Backfill candidates first (no limits apply), then new files within this epoch's limits. */
  private FileBatchSplit nextSplit() {
    List<DiscoveredFile> files = new ArrayList<>();
    while (!candidates.isEmpty() && files.size() < FILES_PER_SPLIT) {
      DiscoveredFile file = candidates.poll();
      queuedKeys.remove(file.key);
      files.add(file);
    }
    while (!pending.isEmpty() && files.size() < FILES_PER_SPLIT && withinLimits()) {
      DiscoveredFile file = pending.poll();
      queuedKeys.remove(file.key);
      files.add(file);
      filesThisEpoch++;
      bytesThisEpoch += file.size;
      filesAdmitted++;
    }
    return files.isEmpty() ? null : new FileBatchSplit("files-" + UUID.randomUUID(), files);
  }

  private boolean withinLimits() {
    return settings.ignoreLimits()
        || (filesThisEpoch < settings.maxFilesPerTrigger()
            && (settings.maxBytesPerTrigger() <= 0
                || bytesThisEpoch < settings.maxBytesPerTrigger()));
  }

  private void checkCaughtUp() {
    if (caughtUp
        || !settings.availableNow()
        || !listedAll
        || listing
        || !pending.isEmpty()
        || !candidates.isEmpty()
        || waiting.size() < context.currentParallelism()) {
      return;
    }
    caughtUp = true;
    LOG.info(
        "Auto Loader handed out every file of this availableNow run ({} in all)", filesAdmitted);
    positions.onCaughtUp("files", 1);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    waiting.add(subtaskId);
    assign();
    list();
  }

  @Override
  public void addSplitsBack(List<FileBatchSplit> splits, int subtaskId) {
    // already admitted: back as candidates (outside the limits; the ledger drops what was read)
    for (FileBatchSplit split : splits) {
      for (DiscoveredFile file : split.files()) {
        if (queuedKeys.add(file.key)) {
          candidates.add(file);
        }
      }
    }
    waiting.remove(subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for work themselves
  }

  private Map<String, Long> position() {
    Map<String, Long> position = new LinkedHashMap<>();
    position.put(FILES_ADMITTED, filesAdmitted);
    position.put(LISTING_CALLS, listingCalls);
    return position;
  }

  private Map<String, Object> metrics() {
    long bytes = 0;
    for (DiscoveredFile f : pending) {
      bytes += f.size;
    }
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("numFilesOutstanding", (long) pending.size() + candidates.size());
    metrics.put("numBytesOutstanding", bytes);
    metrics.put("listingCalls", listingCalls);
    metrics.put("filesDiscoveredLastListing", (long) lastListingFiles);
    metrics.put("fullListings", fullListings);
    metrics.put("cursor", cursor);
    if (notifications != null) {
      metrics.put(NOTIFICATIONS_RECEIVED, notificationsReceived);
      metrics.put(NOTIFICATIONS_DELETED, notificationsDeleted);
    }
    return metrics;
  }

  @Override
  public DiscoveryState snapshotState(long checkpointId) {
    DiscoveryState state =
        new DiscoveryState(
            cursor,
            backfillCursor,
            incrementalListings,
            lastBackfillMillis,
            ignoreBefore,
            filesAdmitted,
            listingCalls,
            new ArrayList<>(pending),
            new ArrayList<>(candidates));
    positions.onReport(new PositionReport(checkpointId, position()));
    if (!receiptsThisEpoch.isEmpty()) {
      // their files are in this checkpoint: pending above, in a reader's split, or in the ledger
      receiptsByCheckpoint.put(checkpointId, receiptsThisEpoch);
      receiptsThisEpoch = new ArrayList<>();
    }
    // a new epoch starts: list once and admit its share
    filesThisEpoch = 0;
    bytesThisEpoch = 0;
    context.runInCoordinatorThread(
        () -> {
          assign();
          list();
        });
    return state;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, Map.of(), metrics());
    deleteNotificationsUpTo(checkpointId);
  }

  /** Deletes the messages received before the completed checkpoint; a failure is only logged. */
  private void deleteNotificationsUpTo(long checkpointId) {
    Map<Long, List<String>> done = receiptsByCheckpoint.headMap(checkpointId, true);
    if (done.isEmpty()) {
      return;
    }
    List<String> handles = new ArrayList<>();
    done.values().forEach(handles::addAll);
    done.clear();
    context.callAsync(
        () -> notifications.delete(handles),
        (deleted, error) -> {
          if (error != null) {
            // they come back after the visibility timeout; the ledger drops their files
            LOG.warn(
                "Auto Loader could not delete {} notification messages: {}",
                handles.size(),
                error.getMessage());
          } else {
            notificationsDeleted += deleted;
          }
        });
  }

  @Override
  public void close() throws IOException {
    lister.close();
    if (notifications != null) {
      notifications.close();
    }
  }
}
