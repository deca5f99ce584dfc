package io.lakestream.operators.join;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.ValuesTypeInfo;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.MissingWatermarkException;
import io.lakestream.operators.watermark.UpstreamWatermark;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a Structured Streaming stream-stream join of two streams on equal key columns plus an
 * event-time range, in append mode, as a {@link StreamJoinOperator}:
 *
 * <pre>{@code
 * DataStream<JoinedRow<Impression, Click>> joined =
 *     StreamJoinBuilder.join(impressions, clicks)
 *         .on(KeyColumns.of("ad_id", (Impression i) -> i.adId),
 *             KeyColumns.of("ad_id", (Click c) -> c.adId))
 *         // impressionTime BETWEEN clickTime - 1 hour AND clickTime
 *         .leftTimeBetween(Duration.ofHours(1), Duration.ZERO)
 *         .joinType(JoinType.LEFT_OUTER)
 *         .uid("impressions-clicks")
 *         .build();
 * }</pre>
 *
 * <p>{@link #build()} checks eagerly, as Spark's analyzer does:
 *
 * <ul>
 *   <li>a uid and the key columns of both sides (same number of columns) are required; row types
 *       that Flink would serialize with Kryo are refused (state must not use Kryo);
 *   <li>outer joins need a watermark on both inputs ({@link MissingWatermarkException} otherwise)
 *       and an event-time range ({@code STREAM_JOIN_WITHOUT_TIME_RANGE} otherwise): without them an
 *       unmatched row could never be known to be final;
 *   <li>an inner join without a watermark on both inputs, or without a range, logs a warning: its
 *       state is never dropped and grows with the input.
 * </ul>
 *
 * @param <L> the left row type
 * @param <R> the right row type
 */
@PublicEvolving
public final class StreamJoinBuilder<L, R> {
  private static final Logger LOG = LoggerFactory.getLogger(StreamJoinBuilder.class);

  private final DataStream<L> left;
  private final DataStream<R> right;
  private KeyColumns<L> leftKeys;
  private KeyColumns<R> rightKeys;
  private EventTimeRange range;
  private JoinType type = JoinType.INNER;
  private String uid;

  private StreamJoinBuilder(DataStream<L> left, DataStream<R> right) {
    this.left = Objects.requireNonNull(left, "left");
    this.right = Objects.requireNonNull(right, "right");
  }

  /** Starts a join of {@code left} with {@code right}. */
  public static <L, R> StreamJoinBuilder<L, R> join(DataStream<L> left, DataStream<R> right) {
    return new StreamJoinBuilder<>(left, right);
  }

  /** The equi-join keys: the i-th left column equals the i-th right column (required). */
  public StreamJoinBuilder<L, R> on(KeyColumns<L> leftKeys, KeyColumns<R> rightKeys) {
    this.leftKeys = leftKeys;
    this.rightKeys = rightKeys;
    return this;
  }

  /**
   * The event-time condition {@code leftTime BETWEEN rightTime - lower AND rightTime + upper} (see
   * {@link EventTimeRange}); event times are the rows' timestamps set by {@code withWatermark}.
   * Required for outer joins; it is what lets state be dropped.
   */
  public StreamJoinBuilder<L, R> leftTimeBetween(Duration lower, Duration upper) {
    this.range = EventTimeRange.leftTimeBetween(lower, upper);
    return this;
  }

  /** The join type; default {@link JoinType#INNER}. */
  public StreamJoinBuilder<L, R> joinType(JoinType type) {
    this.type = type;
    return this;
  }

  /** The operator uid (required: the buffered rows live under it); also names its metrics. */
  public StreamJoinBuilder<L, R> uid(String uid) {
    this.uid = uid;
    return this;
  }

  /** Checks the settings and adds the join operator. */
  public SingleOutputStreamOperator<JoinedRow<L, R>> build() {
    sanityCheck();
    boolean watermarks =
        UpstreamWatermark.of(left).present() && UpstreamWatermark.of(right).present();
    if (type != JoinType.INNER) {
      requireOuterConditions(watermarks);
    } else if (!watermarks || range == null) {
      LOG.warn(
          "Stream-stream inner join ({}) {}: its state is never dropped and keeps every row of"
              + " both inputs, growing without limit. Add Watermarks.withWatermark(...) on both"
              + " inputs and an event-time range (StreamJoinBuilder.leftTimeBetween) so rows that"
              + " can no longer match are dropped.",
          uid,
          !watermarks ? "has no watermark on both inputs" : "has no event-time range");
    }
    TypeInformation<JoinedRow<L, R>> outType = JoinedRow.typeInfo(left.getType(), right.getType());
    String name =
        type.sparkName()
            + " join on ("
            + leftKeys
            + ") = ("
            + rightKeys
            + ")"
            + (range == null ? "" : " and " + range);
    return left.connect(right)
        .keyBy(leftKeys, rightKeys, ValuesTypeInfo.INSTANCE)
        .transform(
            StateMetrics.operatorName(name),
            outType,
            new StreamJoinOperator<>(type, range, left.getType(), right.getType(), uid))
        .uid(uid);
  }

  private void requireOuterConditions(boolean watermarks) {
    String what = "Stream-stream " + type.sparkName() + " join (" + uid + ")";
    if (!watermarks) {
      throw new MissingWatermarkException(
          what
              + " between two streaming inputs is not supported without a watermark on both"
              + " inputs: an unmatched row can be emitted with nulls only once the watermark"
              + " shows that no row of the other side can match it any more. Add"
              + " Watermarks.withWatermark(stream, eventTime, delay, uid) on both inputs.");
    }
    if (range == null) {
      throw new LakestreamException(
          OperatorErrorClass.STREAM_JOIN_WITHOUT_TIME_RANGE,
          what
              + " between two streaming inputs is not supported without an event-time range"
              + " condition: without it a row could match rows of any future time, so it is never"
              + " final. Add StreamJoinBuilder.leftTimeBetween(lower, upper), i.e. leftTime"
              + " BETWEEN rightTime - lower AND rightTime + upper.");
    }
  }

  private void sanityCheck() {
    if (uid == null || uid.isBlank()) {
      throw new LakestreamException(
          OperatorErrorClass.OPERATOR_UID_MISSING,
          "a stream-stream join needs an explicit uid: its buffered rows are stored under it."
              + " Set StreamJoinBuilder.uid(\"...\").");
    }
    Objects.requireNonNull(type, "joinType");
    if (leftKeys == null || rightKeys == null) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_STREAM_JOIN,
          "stream-stream join (" + uid + "): set the join keys with on(leftKeys, rightKeys).");
    }
    if (leftKeys.names().size() != rightKeys.names().size()) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_STREAM_JOIN,
          "stream-stream join ("
              + uid
              + "): the left keys ["
              + leftKeys
              + "] and right keys ["
              + rightKeys
              + "] must have the same number of columns.");
    }
    refuseKryo("left", left.getType());
    refuseKryo("right", right.getType());
  }

  private void refuseKryo(String side, TypeInformation<?> type) {
    if (type instanceof GenericTypeInfo) {
      throw new LakestreamException(
          OperatorErrorClass.KRYO_STATE_TYPE,
          "stream-stream join ("
              + uid
              + "): the "
              + side
              + " row type "
              + type.getTypeClass().getName()
              + " is not a Flink POJO or basic type, so its buffered rows would be serialized with"
              + " Kryo, which lakestream does not allow in state. Make it a POJO (public no-arg"
              + " constructor, public fields or getters/setters) or give the stream explicit"
              + " type information.");
    }
  }
}
