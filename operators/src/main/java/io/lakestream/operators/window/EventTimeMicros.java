package io.lakestream.operators.window;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Reads a row's event time in epoch microseconds, for windows finer than a millisecond. Without it
 * the window operator uses the row's Flink timestamp (milliseconds, set by {@code withWatermark}).
 * Must agree with the watermark's event time to the millisecond.
 */
@PublicEvolving
@FunctionalInterface
public interface EventTimeMicros<T> extends Serializable {
  long eventTimeMicros(T row);
}
