package io.lakestream.connectors.autoloader.source.enumerator;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;

/**
 * How the discovery enumerator lists and admits files (see {@link FileBatchAdmission}).
 *
 * @param maxFilesPerTrigger at most this many new files per epoch (hard; at least 1, as {@code
 *     AutoLoaderBuilder} requires)
 * @param maxBytesPerTrigger stop admitting in an epoch once this many bytes are admitted (soft: a
 *     file is never split); 0 = no limit
 * @param ignoreLimits ignore both limits (the once trigger)
 * @param incrementalListingsPerBackfill a full listing after this many incremental ones; 0 = never
 *     (only {@code backfillIntervalMillis}); 1 = every listing is full
 * @param backfillIntervalMillis a full listing when this long passed since the last; 0 = none
 * @param maxFileAgeMillis files older than this (by modification time) are not ingested; 0 = no
 *     limit
 * @param availableNowStartMillis availableNow: ingest only files modified up to this time, list
 *     once, then report caught-up; -1 = not availableNow
 * @param pageSize files per listing page (bounds the enumerator's memory)
 * @param listingGapMillis a listing that does not continue a cut one starts at most once per this
 *     many ms (half the checkpoint interval, at most {@value #MAX_LISTING_GAP_MILLIS}: Flink runs
 *     the checkpoints it queued during a long epoch back to back, and these catch-up epochs list
 *     nothing new); 0 = at every epoch start and split request
 */
@Internal
public record DiscoverySettings(
    int maxFilesPerTrigger,
    long maxBytesPerTrigger,
    boolean ignoreLimits,
    int incrementalListingsPerBackfill,
    long backfillIntervalMillis,
    long maxFileAgeMillis,
    long availableNowStartMillis,
    int pageSize,
    long listingGapMillis)
    implements Serializable {

  /** The longest {@code listingGapMillis}, for long or no periodic checkpoints (trigger once). */
  public static final long MAX_LISTING_GAP_MILLIS = 5_000;

  /** Settings that list at every epoch start and split request ({@code listingGapMillis} 0). */
  public DiscoverySettings(
      int maxFilesPerTrigger,
      long maxBytesPerTrigger,
      boolean ignoreLimits,
      int incrementalListingsPerBackfill,
      long backfillIntervalMillis,
      long maxFileAgeMillis,
      long availableNowStartMillis,
      int pageSize) {
    this(
        maxFilesPerTrigger,
        maxBytesPerTrigger,
        ignoreLimits,
        incrementalListingsPerBackfill,
        backfillIntervalMillis,
        maxFileAgeMillis,
        availableNowStartMillis,
        pageSize,
        0);
  }

  /**
   * These settings for a job that checkpoints every {@code checkpointIntervalMillis} (no
   * checkpoints when not positive): listings start at most once per half of it, or per {@value
   * #MAX_LISTING_GAP_MILLIS} ms when that is shorter.
   */
  public DiscoverySettings forCheckpointInterval(long checkpointIntervalMillis) {
    return new DiscoverySettings(
        maxFilesPerTrigger,
        maxBytesPerTrigger,
        ignoreLimits,
        incrementalListingsPerBackfill,
        backfillIntervalMillis,
        maxFileAgeMillis,
        availableNowStartMillis,
        pageSize,
        Math.min(MAX_LISTING_GAP_MILLIS, Math.max(0, checkpointIntervalMillis / 2)));
  }

  /** Whether this run is availableNow. */
  public boolean availableNow() {
    return availableNowStartMillis >= 0;
  }

  /** Discovered files kept ahead of admission before listing pauses. */
  public int readAhead() {
    return Math.max(pageSize, 2 * maxFilesPerTrigger);
  }
}
