package io.lakestream.operators.dedup;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.ValuesTypeInfo;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.UpstreamWatermark;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds Structured Streaming's {@code dropDuplicatesWithinWatermark(keys)} or {@code
 * dropDuplicates(keys)} on a stream:
 *
 * <pre>{@code
 * DataStream<Click> unique =
 *     DeduplicationBuilder.dropDuplicatesWithinWatermark(clicks, KeyColumns.of("click_id", c -> c.id))
 *         .uid("dedup-clicks")
 *         .build();
 * }</pre>
 *
 * <p>{@link #build()} checks eagerly: a uid is required; {@code dropDuplicatesWithinWatermark}
 * needs a watermark on every input ({@link
 * io.lakestream.operators.watermark.MissingWatermarkException} otherwise) and takes its delay from
 * the upstream {@code withWatermark} unless {@link #delay(Duration)} is given (required when the
 * inputs have different delays or the watermark comes from a Flink watermark strategy). {@code
 * dropDuplicates} logs a warning that its state is never freed.
 *
 * @param <T> the row type
 */
@PublicEvolving
public final class DeduplicationBuilder<T> {
  private static final Logger LOG = LoggerFactory.getLogger(DeduplicationBuilder.class);

  private final DataStream<T> stream;
  private final KeyColumns<T> keys;
  private final boolean withinWatermark;
  private Duration delay;
  private OutputTag<T> lateRows;
  private String uid;

  private DeduplicationBuilder(DataStream<T> stream, KeyColumns<T> keys, boolean withinWatermark) {
    this.stream = Objects.requireNonNull(stream, "stream");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.withinWatermark = withinWatermark;
  }

  /** Drops duplicates of a key while the key's first event time + delay is above the watermark. */
  public static <T> DeduplicationBuilder<T> dropDuplicatesWithinWatermark(
      DataStream<T> stream, KeyColumns<T> keys) {
    return new DeduplicationBuilder<>(stream, keys, true);
  }

  /** Drops every later row of a key, forever (state grows with the number of keys). */
  public static <T> DeduplicationBuilder<T> dropDuplicates(
      DataStream<T> stream, KeyColumns<T> keys) {
    return new DeduplicationBuilder<>(stream, keys, false);
  }

  /** The bound added to a key's first event time; defaults to the upstream watermark delay. */
  public DeduplicationBuilder<T> delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /** Sends late rows here instead of dropping them (they are counted either way). */
  public DeduplicationBuilder<T> lateRowsTo(OutputTag<T> lateRows) {
    this.lateRows = lateRows;
    return this;
  }

  /** The operator uid (required: the state lives under it); also names its metric group. */
  public DeduplicationBuilder<T> uid(String uid) {
    this.uid = uid;
    return this;
  }

  /** Checks the settings and adds the operator. */
  public SingleOutputStreamOperator<T> build() {
    sanityCheck();
    String operation = withinWatermark ? "dropDuplicatesWithinWatermark" : "dropDuplicates";
    if (!withinWatermark) {
      LOG.warn(
          "{} ({}) on [{}] has no bound: it keeps one state entry per distinct key forever, so its"
              + " state grows without limit. Use dropDuplicatesWithinWatermark with a watermark to"
              + " free keys once the watermark passes them.",
          operation,
          uid,
          keys);
      return stream
          .keyBy(keys, ValuesTypeInfo.INSTANCE)
          .transform(
              StateMetrics.operatorName(operation + "(" + keys + ")"),
              stream.getType(),
              new UnboundedDeduplicator<T>(uid))
          .uid(uid);
    }
    long delayMillis = resolveDelay();
    return stream
        .keyBy(keys, ValuesTypeInfo.INSTANCE)
        .transform(
            StateMetrics.operatorName(operation + "(" + keys + ")"),
            stream.getType(),
            new WatermarkDeduplicator<>(delayMillis, uid, lateRows))
        .uid(uid);
  }

  private long resolveDelay() {
    UpstreamWatermark upstream =
        UpstreamWatermark.of(stream).require("dropDuplicatesWithinWatermark");
    if (delay != null) {
      return delay.toMillis();
    }
    return upstream
        .delayMillis()
        .orElseThrow(
            () ->
                new LakestreamException(
                    OperatorErrorClass.INVALID_DEDUPLICATION,
                    "dropDuplicatesWithinWatermark ("
                        + uid
                        + ") cannot tell the watermark delay: the upstream withWatermark delays"
                        + " are "
                        + upstream.delaysMillis()
                        + " ms (none means a Flink watermark strategy). Set it with"
                        + " DeduplicationBuilder.delay(Duration)."));
  }

  private void sanityCheck() {
    if (uid == null || uid.isBlank()) {
      throw new LakestreamException(
          OperatorErrorClass.OPERATOR_UID_MISSING,
          "dropDuplicates needs an explicit uid: its state is stored under it. Set"
              + " DeduplicationBuilder.uid(\"...\").");
    }
    if (delay != null && delay.isNegative()) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_DEDUPLICATION, "delay must be >= 0, was " + delay);
    }
    if (!withinWatermark && (delay != null || lateRows != null)) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_DEDUPLICATION,
          "dropDuplicates has no watermark bound, so delay(...) and lateRowsTo(...) do not apply;"
              + " use dropDuplicatesWithinWatermark.");
    }
  }
}
