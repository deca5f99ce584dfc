package io.lakestream.operators.join;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * The join types of a stream-stream join, as Structured Streaming names them. Outer joins emit a
 * row of one side with nulls for the other once the watermark guarantees that no row of the other
 * side can match it any more; they need a watermark on both inputs and an event-time range.
 */
@PublicEvolving
public enum JoinType {
  /** Only matching pairs. */
  INNER,
  /** Matching pairs, plus every left row that found no match, with a null right side. */
  LEFT_OUTER,
  /** Matching pairs, plus every right row that found no match, with a null left side. */
  RIGHT_OUTER,
  /** Matching pairs, plus the unmatched rows of both sides. */
  FULL_OUTER;

  /** Whether unmatched left rows are emitted. */
  public boolean keepsLeft() {
    return this == LEFT_OUTER || this == FULL_OUTER;
  }

  /** Whether unmatched right rows are emitted. */
  public boolean keepsRight() {
    return this == RIGHT_OUTER || this == FULL_OUTER;
  }

  /** Spark's name, e.g. {@code LeftOuter}, for messages. */
  public String sparkName() {
    switch (this) {
      case LEFT_OUTER:
        return "LeftOuter";
      case RIGHT_OUTER:
        return "RightOuter";
      case FULL_OUTER:
        return "FullOuter";
      default:
        return "Inner";
    }
  }
}
