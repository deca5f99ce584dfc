package io.lakestream.connectors.delta.source.enumerator;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.Map;

/**
 * How a Delta source run admits files.
 *
 * @param maxFilesPerTrigger at most this many files per epoch; 0 = no limit
 * @param maxBytesPerTrigger stop admitting in an epoch once this many bytes are admitted (soft); 0
 *     = no limit
 * @param ignoreLimits ignore both limits (the once trigger, bounded reads)
 * @param pollIntervalMillis how often the log is checked for new versions
 * @param endVersion admit nothing after this version (availableNow, bounded); -1 = unbounded
 * @param bounded the read ends after {@code endVersion} (a batch read)
 */
@Internal
public record DeltaSourceLimits(
    int maxFilesPerTrigger,
    long maxBytesPerTrigger,
    boolean ignoreLimits,
    long pollIntervalMillis,
    long endVersion,
    boolean bounded)
    implements Serializable {

  /** Discovered files kept in memory ahead of admission before discovery pauses. */
  public int readAhead() {
    return Math.max(1_000, 2 * maxFilesPerTrigger);
  }

  /**
   * The stream's end position for the offsets records, {@code {reservoirVersion=endVersion}}, or
   * empty without an end version.
   */
  public Map<String, Long> endPosition() {
    return endVersion >= 0 ? Map.of("reservoirVersion", endVersion) : Map.of();
  }
}
