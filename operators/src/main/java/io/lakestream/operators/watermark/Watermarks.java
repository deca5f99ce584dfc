package io.lakestream.operators.watermark;

import java.time.Duration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/** Structured Streaming's {@code withWatermark} on a Flink stream. */
public final class Watermarks {
  private Watermarks() {}

  /**
   * Assigns event times from {@code eventTime} and a watermark of max event time - {@code delay}
   * that survives restarts (see {@link PersistentWatermarkOperator}).
   *
   * @param uid the operator uid (its state holds the watermark)
   */
  public static <T> SingleOutputStreamOperator<T> withWatermark(
      DataStream<T> stream, EventTimeExtractor<T> eventTime, Duration delay, String uid) {
    return stream
        .transform(
            "withWatermark(" + delay + ")",
            stream.getType(),
            new PersistentWatermarkOperator<>(eventTime, delay.toMillis()))
        .uid(uid);
  }
}
