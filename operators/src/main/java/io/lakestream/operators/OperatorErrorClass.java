package io.lakestream.operators;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the stateful operators (watermarks, deduplication, windows, joins) and their
 * builders. Builders fail with them before the job runs; {@link #EVENT_TIME_MISSING} fails the
 * task.
 */
@PublicEvolving
public enum OperatorErrorClass implements ErrorClass {
  /** An event-time operator was applied to a stream without a watermark. */
  MISSING_WATERMARK,
  /** A row reached an event-time operator without an event time (no watermark assigned it one). */
  EVENT_TIME_MISSING,
  /** A watermark setting (delay, idle timeout, multipleWatermarkPolicy) cannot be used. */
  INVALID_WATERMARK,
  /** An observe() without aggregates, with two of one name, or a ratio of missing ones. */
  INVALID_OBSERVATION,
  /** A stateful operator has no explicit uid, under which its state is stored. */
  OPERATOR_UID_MISSING,
  /** A key column listed twice, or a key value of a type keys cannot hold. */
  INVALID_KEY_COLUMNS,
  /** A window size, slide or duration that cannot be used. */
  INVALID_WINDOW_SPEC,
  /**
   * A window aggregation is missing its group columns or column name, or combines options that do
   * not apply.
   */
  INVALID_WINDOW_AGGREGATION,
  /** A deduplication's delay or options do not apply, or its watermark delay cannot be told. */
  INVALID_DEDUPLICATION,
  /** A stream-stream join's keys or time range cannot be used. */
  INVALID_STREAM_JOIN,
  /** A stream-stream outer or semi join without an event-time range condition. */
  STREAM_JOIN_WITHOUT_TIME_RANGE,
  /** A row type that would be stored in state with Kryo, which lakestream does not allow. */
  KRYO_STATE_TYPE
}
