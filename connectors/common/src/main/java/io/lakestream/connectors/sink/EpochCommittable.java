package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.Internal;
import java.util.List;
import java.util.Objects;

/**
 * Everything all writers produced for one epoch, gathered by the {@link EpochAggregator} so that
 * ONE committer commits the epoch as one unit (for Delta: one table version).
 *
 * @param <R> what a writer produced (for example a data file)
 */
@Internal
public final class EpochCommittable<R> {
  private final long epoch;
  private final List<R> results;
  private final long watermark;

  /**
   * @param epoch the epoch id (the checkpoint id; for the end of a bounded input, the last
   *     checkpoint id + 1)
   * @param results every writer's results for the epoch, possibly empty
   * @param watermark the event-time watermark the sink had seen when the epoch ended ({@code
   *     Long.MIN_VALUE} if none)
   */
  public EpochCommittable(long epoch, List<R> results, long watermark) {
    if (epoch < 0) {
      throw new IllegalArgumentException("epoch must be >= 0, was " + epoch);
    }
    this.epoch = epoch;
    this.results = List.copyOf(results);
    this.watermark = watermark;
  }

  public long watermark() {
    return watermark;
  }

  public long epoch() {
    return epoch;
  }

  public List<R> results() {
    return results;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof EpochCommittable)) {
      return false;
    }
    EpochCommittable<?> that = (EpochCommittable<?>) o;
    return epoch == that.epoch && watermark == that.watermark && results.equals(that.results);
  }

  @Override
  public int hashCode() {
    return Objects.hash(epoch, results, watermark);
  }

  @Override
  public String toString() {
    return "EpochCommittable{epoch=" + epoch + ", results=" + results.size() + "}";
  }
}
