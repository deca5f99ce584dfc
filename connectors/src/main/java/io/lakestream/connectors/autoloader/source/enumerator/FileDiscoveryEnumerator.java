package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.discovery.FileListing;
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

  private static final int FILES_PER_SPLIT = 100;

  private final SplitEnumeratorContext<FileBatchSplit> context;
  private final DiscoverySettings settings;
  private final FileLister lister;
  private final EpochPositions positions;
  private final LongSupplier clock;

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
    }
  }

  @Override
  public void start() {
    list();
  }

  private record Request(String after, boolean full) {}

  /** Starts a listing unless one runs, enough files wait, or an availableNow run listed all. */
  private void list() {
    if (listing
        || pending.size() + candidates.size() >= settings.readAhead()
        || (settings.availableNow() && listedAll)) {
      return;
    }
    Request request = nextRequest();
    listing = true;
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

  private void onFullPage(FileListing page, long now) {
    for (DiscoveredFile file : page.files()) {
      if (file.key.compareTo(cursor) > 0) {
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
  }

  @Override
  public void close() throws IOException {
    lister.close();
  }
}
