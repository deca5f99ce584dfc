package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.observe.Observe;
import io.lakestream.state.query.QueryContext;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Structured Streaming's {@code withWatermark} and multiple-watermark policy on Flink streams. */
@PublicEvolving
public final class Watermarks {
  private static final Logger LOG = LoggerFactory.getLogger(Watermarks.class);

  /**
   * How long a subtask may see no row before it stops holding back the watermark (see {@link
   * PersistentWatermarkOperator}). Structured Streaming's watermark is a global maximum, which an
   * idle partition cannot stall; this default keeps that expectation on Flink's minimum.
   */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(1);

  private Watermarks() {}

  /**
   * Assigns event times from {@code eventTime} and a watermark of max event time - {@code delay}
   * that survives restarts (see {@link PersistentWatermarkOperator}), with the {@link
   * #DEFAULT_IDLE_TIMEOUT}.
   *
   * @param uid the operator uid (its state holds the watermark)
   */
  public static <T> SingleOutputStreamOperator<T> withWatermark(
      DataStream<T> stream, EventTimeExtractor<T> eventTime, Duration delay, String uid) {
    return withWatermark(stream, eventTime, delay, DEFAULT_IDLE_TIMEOUT, uid);
  }

  /**
   * As {@link #withWatermark(DataStream, EventTimeExtractor, Duration, String)}, and publishes the
   * event times of each epoch's rows in the query's progress as {@code eventTime.min}, {@code max}
   * and {@code avg} (Structured Streaming's), exact under replay (see {@link Observe#eventTimes}).
   * The statistics' operator keeps no state: it may be added to a query between runs.
   */
  public static <T> SingleOutputStreamOperator<T> withWatermark(
      DataStream<T> stream,
      EventTimeExtractor<T> eventTime,
      Duration delay,
      String uid,
      QueryContext query) {
    return Observe.eventTimes(
        withWatermark(stream, eventTime, delay, uid), query, uid, eventTime::eventTimeMillis);
  }

  /**
   * As {@link #withWatermark(DataStream, EventTimeExtractor, Duration, String)} with an explicit
   * idle timeout: a subtask that sees no row for that long no longer holds back the watermark of
   * downstream operators; {@link Duration#ZERO} disables idleness.
   */
  public static <T> SingleOutputStreamOperator<T> withWatermark(
      DataStream<T> stream,
      EventTimeExtractor<T> eventTime,
      Duration delay,
      Duration idleTimeout,
      String uid) {
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(uid, "uid");
    if (delay.isNegative()) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WATERMARK, "withWatermark: delay must be >= 0, was " + delay);
    }
    if (idleTimeout.isNegative()) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WATERMARK,
          "withWatermark: idle timeout must be >= 0 (0 disables it), was " + idleTimeout);
    }
    return stream
        .transform(
            "withWatermark(" + delay + ")",
            stream.getType(),
            new PersistentWatermarkOperator<>(eventTime, delay.toMillis(), idleTimeout.toMillis()))
        .uid(uid);
  }

  /**
   * Unions two watermarked streams and combines their watermarks by {@code policy} (Structured
   * Streaming's {@code spark.sql.streaming.multipleWatermarkPolicy}; use {@link
   * MultipleWatermarkPolicy#MIN} unless late results are worse than lost rows). {@link
   * MultipleWatermarkPolicy#MAX} is logged as a warning, since it drops rows of the slower input.
   *
   * @param uid the operator uid (the operator is stateless; the uid keeps the topology stable)
   */
  public static <T> SingleOutputStreamOperator<T> union(
      DataStream<T> first, DataStream<T> second, MultipleWatermarkPolicy policy, String uid) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(uid, "uid");
    if (policy == MultipleWatermarkPolicy.MAX) {
      LOG.warn(
          "{}: multipleWatermarkPolicy=max: the watermark follows the faster input; rows of the"
              + " slower input that fall behind it are late and are dropped by downstream stateful"
              + " operators (counted in numRowsDroppedByWatermark). Use min to keep them.",
          uid);
    }
    return first
        .connect(second)
        .transform(
            "union(multipleWatermarkPolicy="
                + policy.name().toLowerCase(java.util.Locale.ROOT)
                + ")",
            first.getType(),
            new WatermarkCombiner<T>(policy))
        .uid(uid);
  }
}
