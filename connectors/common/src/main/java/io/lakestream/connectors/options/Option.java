package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One connector option, declared once: its key (the Spark or Databricks name), type, default,
 * description, aliases, whether it is required or secret, and the checks its value must pass. An
 * option is immutable; each {@code with...} method returns a changed copy, so a declaration reads
 *
 * <pre>{@code
 * public static final Option<Integer> MAX_FILES_PER_TRIGGER =
 *     Option.key("maxFilesPerTrigger")
 *         .intType()
 *         .defaultValue(1000)
 *         .atLeast(1)
 *         .withDescription("At most this many data files are admitted per epoch.");
 * }</pre>
 *
 * <p>The key is matched ignoring case by {@link OptionsCatalog#validate}; a value that fails a
 * check fails there with {@link OptionErrorClass#INVALID_OPTION_VALUE}, naming the option and what
 * the check requires. The value of a {@link #secret()} option never appears in a message.
 *
 * @param <T> the value type
 */
@PublicEvolving
public final class Option<T> {
  private final String key;
  private final OptionType<T> type;
  private final T defaultValue;
  private final String defaultText;
  private final String description;
  private final List<String> aliases;
  private final boolean required;
  private final boolean secret;
  private final List<ValueCheck<T>> checks;

  private Option(
      String key,
      OptionType<T> type,
      T defaultValue,
      String defaultText,
      String description,
      List<String> aliases,
      boolean required,
      boolean secret,
      List<ValueCheck<T>> checks) {
    this.key = key;
    this.type = type;
    this.defaultValue = defaultValue;
    this.defaultText = defaultText;
    this.description = description;
    this.aliases = List.copyOf(aliases);
    this.required = required;
    this.secret = secret;
    this.checks = List.copyOf(checks);
  }

  /** Starts the declaration of the option named {@code key}; choose its type next. */
  public static Key key(String key) {
    return new Key(key);
  }

  /** The option's name before its type is chosen. */
  @PublicEvolving
  public static final class Key {
    private final String key;

    private Key(String key) {
      if (Objects.requireNonNull(key, "key").isBlank() || !key.trim().equals(key)) {
        throw new IllegalArgumentException("option key '" + key + "' is blank or padded");
      }
      this.key = key;
    }

    /** A text option. */
    public Option<String> stringType() {
      return type(OptionType.STRING);
    }

    /** A 32-bit whole number. */
    public Option<Integer> intType() {
      return type(OptionType.INT);
    }

    /** A 64-bit whole number. */
    public Option<Long> longType() {
      return type(OptionType.LONG);
    }

    /** A finite decimal number such as {@code 0.5}. */
    public Option<Double> doubleType() {
      return type(OptionType.DOUBLE);
    }

    /** {@code true} or {@code false}. */
    public Option<Boolean> booleanType() {
      return type(OptionType.BOOLEAN);
    }

    /** A duration, e.g. {@code 15 min}. */
    public Option<Duration> durationType() {
      return type(OptionType.DURATION);
    }

    /** A byte size, e.g. {@code 512m}, as a number of bytes. */
    public Option<Long> byteSizeType() {
      return type(OptionType.BYTE_SIZE);
    }

    /** One of {@code values} (see {@link OptionType#choice}). */
    public Option<String> choiceType(String... values) {
      return type(OptionType.choice(values));
    }

    /** An option of {@code type}. */
    public <T> Option<T> type(OptionType<T> type) {
      return new Option<>(
          key,
          Objects.requireNonNull(type, "type"),
          null,
          null,
          "",
          List.of(),
          false,
          false,
          List.of());
    }
  }

  /** A copy with default {@code value}, used when the option is not given. */
  public Option<T> defaultValue(T value) {
    return new Option<>(
        key,
        type,
        Objects.requireNonNull(value, "value"),
        defaultText,
        description,
        aliases,
        required,
        secret,
        checks);
  }

  /** This option, which has no default (for declarations that read like the Flink ones). */
  public Option<T> noDefaultValue() {
    return this;
  }

  /**
   * A copy whose reference shows {@code text} as the default, for a default that depends on other
   * settings (e.g. {@code 100 ms; 30 ms with the realTime trigger}).
   */
  public Option<T> withDefaultText(String text) {
    return new Option<>(
        key, type, defaultValue, text, description, aliases, required, secret, checks);
  }

  /** A copy with {@code text} as its description (one or a few sentences). */
  public Option<T> withDescription(String text) {
    return new Option<>(
        key,
        type,
        defaultValue,
        defaultText,
        Objects.requireNonNull(text, "text"),
        aliases,
        required,
        secret,
        checks);
  }

  /** A copy also known by {@code names} (matched ignoring case, like the key). */
  public Option<T> withAliases(String... names) {
    List<String> all = new ArrayList<>(aliases);
    all.addAll(List.of(names));
    return new Option<>(
        key, type, defaultValue, defaultText, description, all, required, secret, checks);
  }

  /** A copy that must be given, with a non-blank value. */
  public Option<T> required() {
    return new Option<>(
        key, type, defaultValue, defaultText, description, aliases, true, secret, checks);
  }

  /** A copy whose value is a secret: never printed in messages. */
  public Option<T> secret() {
    return new Option<>(
        key, type, defaultValue, defaultText, description, aliases, required, true, checks);
  }

  /**
   * A copy whose values must pass {@code test}; {@code requirement} completes "the option must
   * ...", e.g. {@code "be >= 1"} or {@code "not be negative"}, in messages and in the reference.
   */
  public Option<T> check(Predicate<? super T> test, String requirement) {
    List<ValueCheck<T>> all = new ArrayList<>(checks);
    all.add(new ValueCheck<>(test, requirement));
    return new Option<>(
        key, type, defaultValue, defaultText, description, aliases, required, secret, all);
  }

  /** A copy whose (numeric) values must be at least {@code min}. */
  public Option<T> atLeast(long min) {
    return check(v -> ((Number) v).longValue() >= min, "be >= " + min);
  }

  /** A copy whose (numeric or duration) values must be above zero. */
  public Option<T> positive() {
    return check(v -> signum(v) > 0, "be positive");
  }

  /** A copy whose (numeric or duration) values must not be below zero. */
  public Option<T> notNegative() {
    return check(v -> signum(v) >= 0, "not be negative");
  }

  private static int signum(Object value) {
    if (value instanceof Duration d) {
      return d.isNegative() ? -1 : d.isZero() ? 0 : 1;
    }
    return Long.signum(((Number) value).longValue());
  }

  /** The key, as Spark or Databricks names the option. */
  public String key() {
    return key;
  }

  /** The value type. */
  public OptionType<T> type() {
    return type;
  }

  /** The default, or null if there is none. */
  public T defaultValue() {
    return defaultValue;
  }

  /** Whether there is a default. */
  public boolean hasDefaultValue() {
    return defaultValue != null;
  }

  /** The default as the reference shows it, or empty if there is none. */
  public Optional<String> defaultText() {
    if (defaultText != null) {
      return Optional.of(defaultText);
    }
    return Optional.ofNullable(defaultValue).map(type::format);
  }

  /** The description. */
  public String description() {
    return description;
  }

  /** Other names of the option (besides its key); matched ignoring case. */
  public List<String> aliases() {
    return aliases;
  }

  /** Whether the option must be given. */
  public boolean isRequired() {
    return required;
  }

  /** Whether the value is a secret. */
  public boolean isSecret() {
    return secret;
  }

  /** What a value must satisfy besides its type, e.g. {@code [be >= 1]}. */
  public List<String> requirements() {
    return checks.stream().map(ValueCheck::requirement).toList();
  }

  /** The requirement {@code value} fails, or empty if it passes every check. */
  Optional<String> failedRequirement(T value) {
    return checks.stream()
        .filter(c -> !c.test().test(value))
        .map(ValueCheck::requirement)
        .findFirst();
  }

  @Override
  public String toString() {
    return key;
  }

  private record ValueCheck<T>(Predicate<? super T> test, String requirement) {}
}
