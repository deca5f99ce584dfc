package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.discovery.FileListing;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * Listings of the input path, as both discovery modes make them: one page at a time in the
 * enumerator's worker thread, counting the listing calls, and the full listings (backfills) that
 * find files other listings or lost notifications missed, page by page, as candidates. Holds the
 * backfill's part of the enumerator's checkpoint (where it continues, when it last started).
 *
 * <p>Coordinator thread only (the listing itself runs in the worker thread). A failed listing fails
 * the job with a {@link FlinkRuntimeException} naming the input path's listing.
 */
final class InputListing implements Closeable {
  private final SplitEnumeratorContext<FileBatchSplit> context;
  private final FileLister lister;
  private final int pageSize;
  private long listingCalls;
  private String backfillCursor;
  private long lastBackfillMillis;
  private long fullListings;

  /** Listings restored from {@code state} (its backfill and listing call count). */
  InputListing(
      SplitEnumeratorContext<FileBatchSplit> context,
      FileLister lister,
      int pageSize,
      DiscoveryState state) {
    this.context = context;
    this.lister = lister;
    this.pageSize = pageSize;
    this.listingCalls = state.listingCalls();
    this.backfillCursor = state.backfillCursor();
    this.lastBackfillMillis = state.lastBackfillMillis();
  }

  /** Lists one page after {@code after}; {@code onPage} gets it on the coordinator thread. */
  void list(String after, Consumer<FileListing> onPage) {
    context.callAsync(
        () -> lister.listAfter(after, pageSize),
        (page, error) -> {
          if (error != null) {
            throw new FlinkRuntimeException(
                "Auto Loader could not list its input path: " + error.getMessage(), error);
          }
          listingCalls += page.calls();
          onPage.accept(page);
        });
  }

  /** Whether a full listing runs (continues at {@link #backfillCursor}). */
  boolean backfillRunning() {
    return backfillCursor != null;
  }

  /** Where the running full listing continues, or null when none runs. */
  String backfillCursor() {
    return backfillCursor;
  }

  /** Whether {@code interval} ms (if > 0) passed since the last full listing started. */
  boolean backfillIntervalPassed(long now, long interval) {
    return interval > 0 && now - lastBackfillMillis >= interval;
  }

  /** Starts a full listing from the beginning of the input path. */
  void startBackfill(long now) {
    backfillCursor = "";
    lastBackfillMillis = now;
    fullListings++;
  }

  /**
   * Queues the files of a full listing's page as candidates, up to {@code upTo} (the rest is the
   * incremental listings' part; null = the whole input path), and moves the backfill on.
   */
  void onFullPage(FileListing page, String upTo, FileBatchAdmission admission, long now) {
    for (DiscoveredFile file : page.files()) {
      if (upTo != null && file.key.compareTo(upTo) > 0) {
        backfillCursor = null;
        return;
      }
      admission.offerCandidate(file, now);
    }
    backfillCursor = page.truncated() ? page.lastKey(backfillCursor) : null;
  }

  /** When the last full listing started (epoch ms; 0 = never). */
  long lastBackfillMillis() {
    return lastBackfillMillis;
  }

  /** Listing calls made so far (this run and before). */
  long listingCalls() {
    return listingCalls;
  }

  /** Full listings started by this enumerator. */
  long fullListings() {
    return fullListings;
  }

  @Override
  public void close() throws IOException {
    lister.close();
  }
}
