package io.lakestream.connectors.kafka.source.enumerator;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides how far each partition may be read in the next epoch, as Spark's Kafka micro-batch does
 * for a trigger: {@code maxOffsetsPerTrigger} is split across partitions in proportion to their
 * backlog; with {@code minOffsetsPerTrigger} nothing is admitted until enough records are available
 * or {@code maxTriggerDelay} has passed since the last epoch that admitted records.
 *
 * <p>Unlike Spark (which rounds small shares up), shares are rounded down and the remainder goes to
 * the partitions with the largest fractional shares, so an epoch never exceeds the limit and no
 * partition is granted more than its backlog. Not thread-safe.
 */
@Internal
public final class EpochBudget {
  private final long maxOffsets;
  private final long minOffsets;
  private final long maxDelayMillis;
  private long lastAdmittedAtMillis;

  /**
   * @param maxOffsets at most this many records per epoch; 0 = no limit
   * @param minOffsets admit only once this many are available; 0 = no minimum
   * @param maxDelayMillis admit anyway this long after the last admitting epoch
   * @param nowMillis when the wait for the first epoch starts
   */
  public EpochBudget(long maxOffsets, long minOffsets, long maxDelayMillis, long nowMillis) {
    this.maxOffsets = maxOffsets;
    this.minOffsets = minOffsets;
    this.maxDelayMillis = maxDelayMillis;
    this.lastAdmittedAtMillis = nowMillis;
  }

  /**
   * The end offset (exclusive) each split may be read to in the next epoch.
   *
   * @param positions each split's next offset at the end of the last epoch
   * @param available each split's offset up to which records exist (latest, or the availableNow run
   *     end); splits missing here get no records
   * @param nowMillis the current time
   * @param lastStretch no more records will come in this run (availableNow): admit what is left
   *     even below the minimum
   */
  public Map<String, Long> grant(
      Map<String, Long> positions,
      Map<String, Long> available,
      long nowMillis,
      boolean lastStretch) {
    Map<String, Long> backlog = new TreeMap<>();
    long total = 0;
    for (Map.Entry<String, Long> p : positions.entrySet()) {
      Long end = available.get(p.getKey());
      long b = end == null ? 0 : Math.max(0, end - p.getValue());
      backlog.put(p.getKey(), b);
      total += b;
    }
    Map<String, Long> ends = new TreeMap<>(positions);
    if (total == 0) {
      return ends;
    }
    boolean delayed =
        minOffsets > 0
            && total < minOffsets
            && !lastStretch
            && nowMillis - lastAdmittedAtMillis < maxDelayMillis;
    if (delayed) {
      return ends;
    }
    lastAdmittedAtMillis = nowMillis;
    Map<String, Long> shares =
        maxOffsets > 0 && total > maxOffsets ? prorate(backlog, total, maxOffsets) : backlog;
    shares.forEach((split, share) -> ends.put(split, positions.get(split) + share));
    return ends;
  }

  /**
   * {@code limit} records split over partitions in proportion to {@code backlog} (total > limit).
   */
  static Map<String, Long> prorate(Map<String, Long> backlog, long total, long limit) {
    Map<String, Long> shares = new TreeMap<>();
    List<Map.Entry<String, Double>> fractions = new ArrayList<>();
    long given = 0;
    for (Map.Entry<String, Long> b : backlog.entrySet()) {
      double exact = (double) limit * b.getValue() / total;
      long share = Math.min(b.getValue(), (long) Math.floor(exact));
      shares.put(b.getKey(), share);
      given += share;
      fractions.add(Map.entry(b.getKey(), exact - share));
    }
    fractions.sort(
        Comparator.comparing((Map.Entry<String, Double> e) -> e.getValue())
            .reversed()
            .thenComparing(Map.Entry::getKey));
    for (int i = 0; given < limit && i < fractions.size(); i++) {
      String split = fractions.get(i).getKey();
      if (shares.get(split) < backlog.get(split)) {
        shares.put(split, shares.get(split) + 1);
        given++;
      }
    }
    return shares;
  }
}
