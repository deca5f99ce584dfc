package io.lakestream.connectors.options;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Byte sizes written as text the way Flink writes memory sizes: a whole number and an optional
 * binary unit ({@code 512m}, {@code 10 gb}, {@code 64 kb}); without a unit the number is bytes.
 */
final class ByteSizeText {
  private static final Map<String, Long> UNITS =
      Map.ofEntries(
          Map.entry("b", 1L),
          Map.entry("bytes", 1L),
          Map.entry("k", 1L << 10),
          Map.entry("kb", 1L << 10),
          Map.entry("kibibytes", 1L << 10),
          Map.entry("m", 1L << 20),
          Map.entry("mb", 1L << 20),
          Map.entry("mebibytes", 1L << 20),
          Map.entry("g", 1L << 30),
          Map.entry("gb", 1L << 30),
          Map.entry("gibibytes", 1L << 30),
          Map.entry("t", 1L << 40),
          Map.entry("tb", 1L << 40),
          Map.entry("tebibytes", 1L << 40));

  private static final List<Map.Entry<String, Long>> FORMAT_UNITS =
      List.of(
          Map.entry("t", 1L << 40),
          Map.entry("g", 1L << 30),
          Map.entry("m", 1L << 20),
          Map.entry("k", 1L << 10));

  private ByteSizeText() {}

  /**
   * Parses {@code text} to bytes.
   *
   * @throws IllegalArgumentException saying what a byte size looks like
   */
  static long parse(String text) {
    String trimmed = text.trim();
    int end = 0;
    while (end < trimmed.length() && trimmed.charAt(end) >= '0' && trimmed.charAt(end) <= '9') {
      end++;
    }
    String unit = trimmed.substring(end).trim().toLowerCase(Locale.ROOT);
    Long factor = unit.isEmpty() ? Long.valueOf(1L) : UNITS.get(unit);
    if (end == 0 || factor == null) {
      throw new IllegalArgumentException(
          "must be a byte size: a whole number and a unit (b, k, m, g, t), e.g. 512m or 10 gb;"
              + " a number alone is bytes");
    }
    try {
      return Math.multiplyExact(Long.parseLong(trimmed.substring(0, end)), factor);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("must be a byte size below 8 exbibytes");
    }
  }

  /** {@code bytes} in its largest whole unit, e.g. {@code 50g}; parses back to itself. */
  static String format(long bytes) {
    for (Map.Entry<String, Long> unit : FORMAT_UNITS) {
      if (bytes != 0 && bytes % unit.getValue() == 0) {
        return bytes / unit.getValue() + unit.getKey();
      }
    }
    return bytes + "b";
  }
}
