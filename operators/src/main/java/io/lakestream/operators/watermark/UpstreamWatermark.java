package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.Internal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.eventtime.NoWatermarksGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.streaming.api.transformations.TimestampsAndWatermarksTransformation;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;

/**
 * What the job graph says about a stream's watermark, found by walking its transformations back to
 * the sources: whether every path passes a watermark assigner ({@link Watermarks#withWatermark},
 * Flink's {@code assignTimestampsAndWatermarks}, or a source with a watermark strategy), and the
 * delays of the {@code withWatermark} operators found.
 */
@Internal
public final class UpstreamWatermark {
  private final boolean present;
  private final Set<Long> delaysMillis;

  private UpstreamWatermark(boolean present, Set<Long> delaysMillis) {
    this.present = present;
    this.delaysMillis = delaysMillis;
  }

  /** Inspects {@code stream}'s upstream graph. */
  public static UpstreamWatermark of(DataStream<?> stream) {
    Set<Long> delays = new TreeSet<>();
    boolean present = present(stream.getTransformation(), delays, new HashSet<>());
    return new UpstreamWatermark(present, delays);
  }

  /** Whether rows reaching the stream are covered by a watermark on every path. */
  public boolean present() {
    return present;
  }

  /** The delay of the upstream {@code withWatermark}, if there is exactly one distinct delay. */
  public Optional<Long> delayMillis() {
    return delaysMillis.size() == 1
        ? Optional.of(delaysMillis.iterator().next())
        : Optional.empty();
  }

  /** All distinct {@code withWatermark} delays found upstream. */
  public Set<Long> delaysMillis() {
    return Set.copyOf(delaysMillis);
  }

  /**
   * Fails with {@link MissingWatermarkException} unless a watermark is {@link #present()}.
   *
   * @param operation what needs it, for example {@code dropDuplicatesWithinWatermark}
   */
  public UpstreamWatermark require(String operation) {
    if (!present) {
      throw new MissingWatermarkException(
          operation
              + " is not supported on streams without a watermark: at least one input has no"
              + " event-time watermark, so its state could never be dropped and results never"
              + " finalized. Add Watermarks.withWatermark(stream, eventTime, delay, uid) on every"
              + " input before "
              + operation
              + ".");
    }
    return this;
  }

  private static boolean present(Transformation<?> t, Set<Long> delays, Set<Integer> seen) {
    if (!seen.add(t.getId())) {
      return true; // a diamond: judged on the first visit
    }
    if (t instanceof OneInputTransformation) {
      StreamOperatorFactory<?> factory = ((OneInputTransformation<?, ?>) t).getOperatorFactory();
      if (factory instanceof SimpleOperatorFactory
          && ((SimpleOperatorFactory<?>) factory).getOperator()
              instanceof PersistentWatermarkOperator) {
        delays.add(
            ((PersistentWatermarkOperator<?>) ((SimpleOperatorFactory<?>) factory).getOperator())
                .delayMillis());
        return true;
      }
    }
    if (t instanceof TimestampsAndWatermarksTransformation) {
      return !isNoWatermarks(((TimestampsAndWatermarksTransformation<?>) t).getWatermarkStrategy());
    }
    if (t instanceof SourceTransformation) {
      return !isNoWatermarks(((SourceTransformation<?, ?, ?>) t).getWatermarkStrategy());
    }
    if (t instanceof TwoInputTransformation) {
      TwoInputTransformation<?, ?, ?> two = (TwoInputTransformation<?, ?, ?>) t;
      StreamOperatorFactory<?> factory = two.getOperatorFactory();
      boolean first = present(two.getInput1(), delays, seen);
      boolean second = present(two.getInput2(), delays, seen);
      boolean max =
          factory instanceof SimpleOperatorFactory
              && ((SimpleOperatorFactory<?>) factory).getOperator() instanceof WatermarkCombiner
              && ((WatermarkCombiner<?>) ((SimpleOperatorFactory<?>) factory).getOperator())
                      .policy()
                  == MultipleWatermarkPolicy.MAX;
      return max ? first || second : first && second;
    }
    List<Transformation<?>> inputs = t.getInputs();
    if (inputs.isEmpty()) {
      return false;
    }
    boolean all = true;
    Deque<Transformation<?>> pending = new ArrayDeque<>(inputs);
    while (!pending.isEmpty()) {
      all &= present(pending.pop(), delays, seen);
    }
    return all;
  }

  private static boolean isNoWatermarks(WatermarkStrategy<?> strategy) {
    try {
      return strategy.createWatermarkGenerator(
              new WatermarkGeneratorSupplier.Context() {
                @Override
                public MetricGroup getMetricGroup() {
                  return null;
                }
              })
          instanceof NoWatermarksGenerator;
    } catch (RuntimeException e) {
      return false; // a generator that needs a real context is a real generator
    }
  }
}
