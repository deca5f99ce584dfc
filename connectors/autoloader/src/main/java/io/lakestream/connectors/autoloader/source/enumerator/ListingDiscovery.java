package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileListing;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery by listing the input path: incremental listings start after the greatest key seen so
 * far (the cursor), so on S3 they cost one request per 1,000 new files. A file written with a key
 * below the cursor is missed by them; a full listing every {@code incrementalListingsPerBackfill}
 * incremental listings, or every {@code backfillInterval}, runs page by page up to the cursor and
 * finds it (as a candidate).
 *
 * <p>availableNow: only files modified up to the run's start are taken, the input path is listed
 * once (the cursor does not move past a later file, which the next run will find), and then
 * discovery is {@link #exhausted}. Unless listings are incremental only ({@code
 * incrementalListingsPerBackfill} 0, {@code useIncrementalListing = true}), a run that continues
 * from a cursor first lists the input path up to it, as candidates: a file that arrived below the
 * cursor since the last run (a new {@code region=...} directory sorting before the newest file) is
 * read by this run, not missed by every run after it.
 */
final class ListingDiscovery implements FileDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(ListingDiscovery.class);

  private final DiscoverySettings settings;
  private final InputListing listing;
  private final FileBatchAdmission admission;
  private final LongSupplier clock;
  private String cursor;
  private int incrementalListings;
  private String scanCursor;
  private boolean cursorFrozen;
  private boolean listedAll;
  private boolean listBelowCursorFirst;

  /** Listings continuing from {@code state}'s cursor. */
  ListingDiscovery(
      DiscoverySettings settings,
      DiscoveryState state,
      InputListing listing,
      FileBatchAdmission admission,
      LongSupplier clock) {
    this.settings = settings;
    this.listing = listing;
    this.admission = admission;
    this.clock = clock;
    this.cursor = state.cursor();
    this.incrementalListings = state.incrementalListings();
    this.scanCursor = cursor;
    this.listBelowCursorFirst =
        settings.availableNow()
            && settings.incrementalListingsPerBackfill() > 0
            && !cursor.isEmpty();
  }

  @Override
  public boolean exhausted() {
    return settings.availableNow() && listedAll;
  }

  @Override
  public void next(Done done) {
    if (settings.availableNow()) {
      availableNow(done);
      return;
    }
    if (listing.backfillRunning()) {
      full(listing.backfillCursor(), done);
      return;
    }
    long now = clock.getAsLong();
    if (backfillDue(now)) {
      listing.startBackfill(now);
      incrementalListings = 0;
      full("", done);
      return;
    }
    incremental(cursor, done);
  }

  private void availableNow(Done done) {
    if (listing.backfillRunning()) {
      full(listing.backfillCursor(), done);
      return;
    }
    if (listBelowCursorFirst) {
      listBelowCursorFirst = false;
      listing.startBackfill(clock.getAsLong());
      full("", done);
      return;
    }
    incremental(scanCursor, done);
  }

  private boolean backfillDue(long now) {
    int every = settings.incrementalListingsPerBackfill();
    return !cursor.isEmpty()
        && ((every > 0 && incrementalListings >= every)
            || listing.backfillIntervalPassed(now, settings.backfillIntervalMillis()));
  }

  private void full(String after, Done done) {
    listing.list(
        after,
        page -> {
          listing.onFullPage(page, cursor, admission, clock.getAsLong());
          done.found(page.files().size(), page::truncated);
        });
  }

  private void incremental(String after, Done done) {
    listing.list(
        after,
        page -> {
          onIncrementalPage(page, clock.getAsLong());
          done.found(page.files().size(), page::truncated);
        });
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
      admission.offerNew(file, now);
    }
    if (!page.files().isEmpty()) {
      LOG.debug("Listed {} files after {}", page.files().size(), scanCursor);
    }
    scanCursor = page.lastKey(scanCursor);
    if (!page.truncated()) {
      listedAll = true;
    }
  }

  @Override
  public String cursor() {
    return cursor;
  }

  @Override
  public int incrementalListings() {
    return incrementalListings;
  }

  @Override
  public void close() {}
}
