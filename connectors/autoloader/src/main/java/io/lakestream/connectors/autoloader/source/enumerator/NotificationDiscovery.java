package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.notification.S3EventQueue;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery from S3 event notifications ({@code cloudFiles.useNotifications}): instead of
 * incremental listings, the files the messages of an SQS queue announce are taken as new files
 * (same limits, same ledger downstream, so a repeated notification is read once); it long-polls
 * again at once while the queue has more or readers wait for work. Full listings still run every
 * {@code backfillInterval} (and once at the first start with {@code includeExistingFiles}),
 * covering the whole input path, to find files whose event was lost.
 *
 * <p>A message is deleted from the queue only when a checkpoint that holds its files (still
 * pending, in a reader's split, or read into the ledger) completed; until then it stays hidden for
 * the queue's visibility timeout, so a query that fails before that checkpoint gets it again and
 * the ledger drops what was already read. A failed deletion is only logged: the message comes back.
 *
 * <p>Not for availableNow runs, which list ({@link ListingDiscovery}).
 */
final class NotificationDiscovery implements FileDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(NotificationDiscovery.class);

  private static final int POLL_WAIT_SECONDS = 1;

  private final SplitEnumeratorContext<FileBatchSplit> context;
  private final DiscoverySettings settings;
  private final DiscoveryState restored;
  private final InputListing listing;
  private final FileBatchAdmission admission;
  private final S3EventQueue queue;
  private final LongSupplier clock;
  private final NotificationReceipts receipts = new NotificationReceipts();
  private long received;
  private long deleted;

  /**
   * @param restored the checkpoint this run starts from; its cursor is carried unchanged
   * @throws IllegalArgumentException for an availableNow run
   */
  NotificationDiscovery(
      SplitEnumeratorContext<FileBatchSplit> context,
      DiscoverySettings settings,
      DiscoveryState restored,
      InputListing listing,
      FileBatchAdmission admission,
      S3EventQueue queue,
      LongSupplier clock) {
    if (settings.availableNow()) {
      throw new IllegalArgumentException(
          "an availableNow run discovers files by listing, not from notifications");
    }
    this.context = context;
    this.settings = settings;
    this.restored = restored;
    this.listing = listing;
    this.admission = admission;
    this.queue = queue;
    this.clock = clock;
    if (context.metricGroup() != null) {
      context.metricGroup().gauge(FileDiscoveryEnumerator.NOTIFICATIONS_RECEIVED, () -> received);
    }
  }

  @Override
  public boolean exhausted() {
    return false;
  }

  @Override
  public void next(Done done) {
    if (listing.backfillRunning()) {
      full(listing.backfillCursor(), done);
      return;
    }
    long now = clock.getAsLong();
    if (backfillDue(now)) {
      listing.startBackfill(now);
      full("", done);
      return;
    }
    poll(done);
  }

  private boolean backfillDue(long now) {
    boolean firstWithExisting =
        listing.lastBackfillMillis() == 0 && restored.ignoreBefore() == Long.MIN_VALUE;
    return firstWithExisting
        || listing.backfillIntervalPassed(now, settings.backfillIntervalMillis());
  }

  /** A full listing covers the whole input path: there is no cursor. */
  private void full(String after, Done done) {
    listing.list(
        after,
        page -> {
          listing.onFullPage(page, null, admission, clock.getAsLong());
          done.found(page.files().size(), page::truncated);
        });
  }

  private void poll(Done done) {
    int room = settings.readAhead() - admission.queued();
    context.callAsync(
        () -> queue.receive(room, POLL_WAIT_SECONDS), (page, error) -> onPolled(page, error, done));
  }

  private void onPolled(S3EventQueue.Page page, Throwable error, Done done) {
    if (error != null) {
      throw new FlinkRuntimeException(
          "Auto Loader could not receive file notifications: " + error.getMessage(), error);
    }
    received += page.receiptHandles().size();
    receipts.received(page.receiptHandles());
    long now = clock.getAsLong();
    for (DiscoveredFile file : page.files()) {
      admission.offerNew(file, now);
    }
    // long-poll again while the queue has more, or while readers wait for work: an event is
    // picked up within a poll's wait, not at the next epoch
    done.found(
        page.files().size(),
        () -> page.more() || (admission.drained() && admission.readersWaiting()));
  }

  @Override
  public String cursor() {
    return restored.cursor();
  }

  @Override
  public int incrementalListings() {
    return restored.incrementalListings();
  }

  @Override
  public void onCheckpoint(long checkpointId) {
    // their files are in this checkpoint: pending, in a reader's split, or in the ledger
    receipts.checkpoint(checkpointId);
  }

  /** Deletes the messages received before the completed checkpoint. */
  @Override
  public void onCheckpointComplete(long checkpointId) {
    List<String> handles = receipts.takeUpTo(checkpointId);
    if (handles.isEmpty()) {
      return;
    }
    context.callAsync(
        () -> queue.delete(handles),
        (count, error) -> {
          if (error != null) {
            // they come back after the visibility timeout; the ledger drops their files
            LOG.warn(
                "Auto Loader could not delete {} notification messages: {}",
                handles.size(),
                error.getMessage());
          } else {
            deleted += count;
          }
        });
  }

  @Override
  public void addMetrics(Map<String, Object> metrics) {
    metrics.put(FileDiscoveryEnumerator.NOTIFICATIONS_RECEIVED, received);
    metrics.put(FileDiscoveryEnumerator.NOTIFICATIONS_DELETED, deleted);
    metrics.put("approximateQueueSize", queue.approximateSize());
  }

  @Override
  public void close() {
    queue.close();
  }
}
