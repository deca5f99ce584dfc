package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * How an option's text becomes a typed value, and how a value is written back (for the reference's
 * default column). Parsing trims the text; a text that does not parse fails with an {@link
 * IllegalArgumentException} whose message says what the type looks like (e.g. {@code must be true
 * or false}), which the catalog turns into an {@link OptionErrorClass#INVALID_OPTION_VALUE} error
 * naming the option.
 *
 * @param <T> the value type
 */
@PublicEvolving
public final class OptionType<T> {
  /** Any text, kept as given (not trimmed). */
  public static final OptionType<String> STRING =
      new OptionType<>("string", text -> text, String::valueOf, List.of());

  /** A 32-bit whole number. */
  public static final OptionType<Integer> INT =
      new OptionType<>(
          "int", text -> parseLong(text, "an int", true).intValue(), String::valueOf, List.of());

  /** A 64-bit whole number. */
  public static final OptionType<Long> LONG =
      new OptionType<>(
          "long", text -> parseLong(text, "a long", false), String::valueOf, List.of());

  /** A finite decimal number such as {@code 0.5} or {@code 1e-3}. */
  public static final OptionType<Double> DOUBLE =
      new OptionType<>("double", OptionType::parseDouble, String::valueOf, List.of());

  /** {@code true} or {@code false}, in any case. */
  public static final OptionType<Boolean> BOOLEAN =
      new OptionType<>("boolean", OptionType::parseBoolean, String::valueOf, List.of());

  /** A duration such as {@code 15 min} or {@code 500 ms}; a number alone is milliseconds. */
  public static final OptionType<Duration> DURATION =
      new OptionType<>("duration", DurationText::parse, DurationText::format, List.of());

  /** A byte size such as {@code 512m} or {@code 10 gb}, as a number of bytes. */
  public static final OptionType<Long> BYTE_SIZE =
      new OptionType<>("byte size", ByteSizeText::parse, ByteSizeText::format, List.of());

  private final String name;
  private final Function<String, T> parser;
  private final Function<T, String> formatter;
  private final List<String> choices;

  private OptionType(
      String name,
      Function<String, T> parser,
      Function<T, String> formatter,
      List<String> choices) {
    this.name = name;
    this.parser = parser;
    this.formatter = formatter;
    this.choices = List.copyOf(choices);
  }

  /**
   * One of {@code values}, matched ignoring case and treating {@code -} and {@code _} alike; the
   * parsed value is the one declared here (so {@code delete} gives {@code DELETE}).
   */
  public static OptionType<String> choice(String... values) {
    List<String> declared = List.of(values);
    return new OptionType<>(
        "choice", text -> pickChoice(declared, text), String::valueOf, declared);
  }

  /** The type's name in the reference, e.g. {@code duration}. */
  public String name() {
    return name;
  }

  /** The declared values of a {@link #choice} type; empty for other types. */
  public List<String> choices() {
    return choices;
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException saying what the type looks like
   */
  public T parse(String text) {
    return parser.apply(Objects.requireNonNull(text, "text"));
  }

  /** {@code value} as text that parses back to it. */
  public String format(T value) {
    return formatter.apply(value);
  }

  private static Long parseLong(String text, String what, boolean intRange) {
    try {
      long value = Long.parseLong(text.trim());
      if (intRange && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be a whole number (" + what + ")");
    }
  }

  private static Double parseDouble(String text) {
    try {
      double value = Double.parseDouble(text.trim());
      if (Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("must be a decimal number such as 0.5");
  }

  private static Boolean parseBoolean(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    if (value.equals("true") || value.equals("false")) {
      return Boolean.valueOf(value);
    }
    throw new IllegalArgumentException("must be true or false");
  }

  private static String pickChoice(List<String> declared, String text) {
    String given = normalized(text);
    for (String value : declared) {
      if (normalized(value).equals(given)) {
        return value;
      }
    }
    throw new IllegalArgumentException("must be " + oneOf(declared));
  }

  private static String normalized(String text) {
    return text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** {@code a, b or c}. */
  static String oneOf(List<String> values) {
    return listed(values, " or ");
  }

  /** {@code values} joined by commas, the last two by {@code last} (e.g. {@code " and "}). */
  static String listed(List<String> values, String last) {
    List<String> head = new ArrayList<>(values.subList(0, values.size() - 1));
    return head.isEmpty()
        ? values.get(0)
        : String.join(", ", head) + last + values.get(values.size() - 1);
  }
}
