package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;

/**
 * How much of the current epoch's file limits a source has used: {@code maxFilesPerTrigger} is hard
 * (no file beyond it), {@code maxBytesPerTrigger} soft (the file that crosses it is still admitted:
 * a file is never split). An enumerator asks {@link #hasRoom} before it admits a file, {@link
 * #count}s every file it admits, and {@link #startEpoch starts} a new epoch when a checkpoint is
 * taken (one epoch = the work between two checkpoints).
 *
 * <p>Not thread-safe: used from the enumerator's coordinator thread.
 */
@Internal
public final class EpochQuota {
  private final int maxFilesPerTrigger;
  private final long maxBytesPerTrigger;
  private final boolean ignoreLimits;
  private int filesThisEpoch;
  private long bytesThisEpoch;

  /**
   * @param maxFilesPerTrigger at most this many files per epoch; 0 = no limit
   * @param maxBytesPerTrigger stop admitting in an epoch once this many bytes are admitted; 0 = no
   *     limit
   * @param ignoreLimits ignore both limits (the once trigger, bounded reads)
   */
  public EpochQuota(int maxFilesPerTrigger, long maxBytesPerTrigger, boolean ignoreLimits) {
    this.maxFilesPerTrigger = maxFilesPerTrigger;
    this.maxBytesPerTrigger = maxBytesPerTrigger;
    this.ignoreLimits = ignoreLimits;
  }

  /** Whether this epoch may admit another file. */
  public boolean hasRoom() {
    return ignoreLimits
        || ((maxFilesPerTrigger <= 0 || filesThisEpoch < maxFilesPerTrigger)
            && (maxBytesPerTrigger <= 0 || bytesThisEpoch < maxBytesPerTrigger));
  }

  /** Counts an admitted file of {@code bytes} bytes against this epoch's limits. */
  public void count(long bytes) {
    filesThisEpoch++;
    bytesThisEpoch += bytes;
  }

  /** A new epoch starts (a checkpoint was taken): its limits count from zero. */
  public void startEpoch() {
    filesThisEpoch = 0;
    bytesThisEpoch = 0;
  }
}
