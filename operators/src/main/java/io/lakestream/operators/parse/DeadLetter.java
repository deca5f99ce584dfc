package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * A record that could not be turned into a row: the raw input, why it was rejected, and where it
 * came from (for example {@code orders/3@1042} for topic, partition and offset).
 *
 * <p>A Flink POJO (public fields, no-arg constructor), so it is serialized without Kryo and can
 * evolve by adding fields.
 */
@PublicEvolving
public class DeadLetter {
  /** The raw input as received. */
  public String raw;

  /** What was wrong with it. */
  public String error;

  /** Where it came from, in the source's own notation. */
  public String source;

  /** Processing time at which it was rejected, epoch millis. */
  public long rejectedAtMillis;

  public DeadLetter() {}

  public DeadLetter(String raw, String error, String source, long rejectedAtMillis) {
    this.raw = raw;
    this.error = error;
    this.source = source;
    this.rejectedAtMillis = rejectedAtMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeadLetter)) {
      return false;
    }
    DeadLetter that = (DeadLetter) o;
    return rejectedAtMillis == that.rejectedAtMillis
        && Objects.equals(raw, that.raw)
        && Objects.equals(error, that.error)
        && Objects.equals(source, that.source);
  }

  @Override
  public int hashCode() {
    return Objects.hash(raw, error, source, rejectedAtMillis);
  }

  @Override
  public String toString() {
    return "DeadLetter{source=" + source + ", error=" + error + ", raw=" + raw + "}";
  }
}
