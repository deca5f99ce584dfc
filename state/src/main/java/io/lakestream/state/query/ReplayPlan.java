package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How to replay the epochs an abandoned run already committed, after a query is restored from a
 * snapshot older than its newest one (a "rewind").
 *
 * <p>Sinks skip an epoch whose id they already committed (Delta {@code txn}, commit markers). That
 * is exactly-once only if the replayed epoch with that id holds the same input rows as the original
 * one. This plan carries, per source and epoch, the positions each split had reached at the end of
 * the original epoch (from {@code offsets/N}); sources stop each replayed epoch at those positions.
 * Alignment matters at the <em>critical</em> epochs, the last epoch each sink committed: there the
 * replayed epoch must end exactly where the original did, or rows would be committed twice or
 * never.
 *
 * <p>Immutable and serializable (it travels in the job graph inside the {@link QueryContext}).
 */
@Internal
public final class ReplayPlan implements Serializable {
  private static final long serialVersionUID = 1L;

  /** No replay: a fresh query, or a resume from the newest snapshot. */
  public static final ReplayPlan NONE =
      new ReplayPlan(-1, -1, Collections.emptySortedSet(), Map.of());

  private final long restoredEpoch;
  private final long lastEpoch;
  private final TreeSet<Long> criticalEpochs;
  private final HashMap<String, TreeMap<Long, Map<String, Long>>> endsBySource;

  private ReplayPlan(
      long restoredEpoch,
      long lastEpoch,
      Set<Long> criticalEpochs,
      Map<String, TreeMap<Long, Map<String, Long>>> endsBySource) {
    this.restoredEpoch = restoredEpoch;
    this.lastEpoch = lastEpoch;
    this.criticalEpochs = new TreeSet<>(criticalEpochs);
    this.endsBySource = new HashMap<>(endsBySource);
  }

  /**
   * The plan for restoring epoch {@code restoredEpoch} when epochs up to {@code lastEpoch} were
   * completed by the abandoned run (read from the epoch log by {@code EpochLog.replayPlan}).
   *
   * @param criticalEpochs the epochs where replayed epochs must end exactly where the originals did
   * @param endsBySource per source, per original epoch, the position each split had reached at its
   *     end
   */
  public static ReplayPlan of(
      long restoredEpoch,
      long lastEpoch,
      Set<Long> criticalEpochs,
      Map<String, ? extends Map<Long, Map<String, Long>>> endsBySource) {
    if (lastEpoch <= restoredEpoch) {
      return NONE;
    }
    Map<String, TreeMap<Long, Map<String, Long>>> ends = new HashMap<>();
    endsBySource.forEach((source, byEpoch) -> ends.put(source, new TreeMap<>(byEpoch)));
    return new ReplayPlan(restoredEpoch, lastEpoch, criticalEpochs, ends);
  }

  public boolean isEmpty() {
    return lastEpoch <= restoredEpoch;
  }

  /** The epoch of the restored snapshot. */
  public long restoredEpoch() {
    return restoredEpoch;
  }

  /** The newest epoch the abandoned run completed; replay ends with it. */
  public long lastEpoch() {
    return lastEpoch;
  }

  /** The critical epochs in {@code (after, upTo]}, ascending. */
  public NavigableSet<Long> criticalBetween(long after, long upTo) {
    return Collections.unmodifiableNavigableSet(
        new TreeSet<>(criticalEpochs.subSet(after, false, upTo, true)));
  }

  /** Whether epoch {@code epoch} of a run is part of the replay. */
  public boolean replays(long epoch) {
    return !isEmpty() && epoch > restoredEpoch && epoch <= lastEpoch;
  }

  /**
   * Where each split of {@code source} must stop in replayed epoch {@code epoch}: the positions
   * recorded for the first original epoch at or after it (an epoch whose checkpoint failed in the
   * original run has no record; its rows went into the next one). Empty when the source has no
   * record there or the epoch is not replayed.
   */
  public Map<String, Long> endOf(String source, long epoch) {
    TreeMap<Long, Map<String, Long>> ends = endsBySource.get(source);
    if (!replays(epoch) || ends == null) {
      return Map.of();
    }
    Map.Entry<Long, Map<String, Long>> at = ends.ceilingEntry(epoch);
    return at == null ? Map.of() : Collections.unmodifiableMap(at.getValue());
  }

  @Override
  public String toString() {
    return isEmpty()
        ? "ReplayPlan[none]"
        : "ReplayPlan[restored epoch "
            + restoredEpoch
            + ", replays "
            + (restoredEpoch + 1)
            + ".."
            + lastEpoch
            + ", critical "
            + criticalEpochs
            + ", sources "
            + new TreeSet<>(endsBySource.keySet())
            + "]";
  }
}
