package io.lakestream.operators.window;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;

/**
 * A tumbling or sliding event-time window, as Structured Streaming's {@code window(col, size[,
 * slide])}: windows are half-open {@code [start, start + size)}, aligned to the epoch, with starts
 * every {@code slide}; tumbling means slide = size. Precision is one microsecond; durations range
 * from one microsecond to days (weeks are 7 days).
 *
 * <p>Durations are {@link Duration}s or Spark interval strings such as {@code "10 minutes"}, {@code
 * "1 hour 30 minutes"}, {@code "250 milliseconds"} or {@code "interval 2 days"}. Months and years
 * are refused with an {@link LakestreamException} ({@code INVALID_WINDOW_SPEC}): they have no fixed
 * length, so a window could not be assigned by arithmetic (use days). A slide longer than the size,
 * a non-positive duration, or a {@link Duration} finer than a microsecond is refused the same way.
 */
@PublicEvolving
public final class WindowSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long sizeMicros;
  private final long slideMicros;

  private WindowSpec(long sizeMicros, long slideMicros) {
    if (sizeMicros <= 0 || slideMicros <= 0) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_SPEC,
          "window size and slide must be positive, were "
              + sizeMicros
              + " and "
              + slideMicros
              + " microseconds");
    }
    if (slideMicros > sizeMicros) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_SPEC,
          "the window slide ("
              + slideMicros
              + " us) must be less than or equal to the window size ("
              + sizeMicros
              + " us); otherwise rows between windows would belong to none");
    }
    this.sizeMicros = sizeMicros;
    this.slideMicros = slideMicros;
  }

  /** Tumbling windows of {@code size}, e.g. {@code "5 minutes"}. */
  public static WindowSpec tumbling(String size) {
    long micros = parseMicros(size);
    return new WindowSpec(micros, micros);
  }

  /** Tumbling windows of {@code size}. */
  public static WindowSpec tumbling(Duration size) {
    long micros = toMicros(size);
    return new WindowSpec(micros, micros);
  }

  /** Sliding windows of {@code size} starting every {@code slide}. */
  public static WindowSpec sliding(String size, String slide) {
    return new WindowSpec(parseMicros(size), parseMicros(slide));
  }

  /** Sliding windows of {@code size} starting every {@code slide}. */
  public static WindowSpec sliding(Duration size, Duration slide) {
    return new WindowSpec(toMicros(size), toMicros(slide));
  }

  public long sizeMicros() {
    return sizeMicros;
  }

  public long slideMicros() {
    return slideMicros;
  }

  public boolean isTumbling() {
    return sizeMicros == slideMicros;
  }

  /**
   * The starts of the windows containing {@code eventTimeMicros}, latest first: every aligned
   * {@code start} with {@code start <= t < start + size}.
   */
  public long[] windowStarts(long eventTimeMicros) {
    long last = eventTimeMicros - Math.floorMod(eventTimeMicros, slideMicros);
    int count = 0;
    for (long s = last; s > eventTimeMicros - sizeMicros; s -= slideMicros) {
      count++;
    }
    long[] starts = new long[count];
    long s = last;
    for (int i = 0; i < count; i++, s -= slideMicros) {
      starts[i] = s;
    }
    return starts;
  }

  static long toMicros(Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_SPEC, "window durations must be positive, was " + d);
    }
    if (d.getNano() % 1_000 != 0) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_SPEC,
          "window durations have microsecond precision; " + d + " has nanoseconds");
    }
    return Math.addExact(Math.multiplyExact(d.getSeconds(), 1_000_000L), d.getNano() / 1_000);
  }

  /** Parses a Spark interval string into microseconds. */
  static long parseMicros(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("interval ")) {
      t = t.substring("interval ".length()).trim();
    }
    String[] parts = t.split("\\s+");
    if (t.isEmpty() || parts.length % 2 != 0) {
      throw badDuration(text);
    }
    long total = 0;
    for (int i = 0; i < parts.length; i += 2) {
      long amount;
      try {
        amount = Long.parseLong(parts[i]);
      } catch (NumberFormatException e) {
        throw badDuration(text);
      }
      total = Math.addExact(total, Math.multiplyExact(amount, unitMicros(parts[i + 1], text)));
    }
    if (total <= 0) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_SPEC,
          "window duration '" + text + "' must be positive");
    }
    return total;
  }

  private static long unitMicros(String unit, String text) {
    switch (unit) {
      case "microsecond":
      case "microseconds":
      case "us":
        return 1L;
      case "millisecond":
      case "milliseconds":
      case "ms":
        return 1_000L;
      case "second":
      case "seconds":
      case "s":
        return 1_000_000L;
      case "minute":
      case "minutes":
      case "min":
        return 60_000_000L;
      case "hour":
      case "hours":
      case "h":
        return 3_600_000_000L;
      case "day":
      case "days":
      case "d":
        return 86_400_000_000L;
      case "week":
      case "weeks":
        return 7 * 86_400_000_000L;
      case "month":
      case "months":
      case "year":
      case "years":
        throw new LakestreamException(
            OperatorErrorClass.INVALID_WINDOW_SPEC,
            "window duration '"
                + text
                + "' uses "
                + unit
                + ", which has no fixed length; window sizes and slides must be given in"
                + " microseconds up to days (for example '30 days').");
      default:
        throw badDuration(text);
    }
  }

  private static LakestreamException badDuration(String text) {
    return new LakestreamException(
        OperatorErrorClass.INVALID_WINDOW_SPEC,
        "cannot parse window duration '"
            + text
            + "'; expected '<number> <unit>' pairs such as '10 minutes' or '1 hour 30 minutes',"
            + " units: microseconds, milliseconds, seconds, minutes, hours, days, weeks");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WindowSpec
        && ((WindowSpec) o).sizeMicros == sizeMicros
        && ((WindowSpec) o).slideMicros == slideMicros;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sizeMicros) * 31 + Long.hashCode(slideMicros);
  }

  @Override
  public String toString() {
    return isTumbling()
        ? "tumbling(" + sizeMicros + " us)"
        : "sliding(" + sizeMicros + " us, " + slideMicros + " us)";
  }
}
