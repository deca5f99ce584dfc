package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every option of one connector (a source or sink), its pass-through prefixes and cross-field
 * rules, and the one validator all connectors share.
 *
 * <p>{@link #validate} guarantees, for any option map:
 *
 * <ul>
 *   <li>keys match declared keys and aliases ignoring case (as Spark's options do); a key given
 *       twice in different case fails with {@link OptionErrorClass#CONFLICTING_OPTIONS};
 *   <li>a key that is neither declared nor under a {@link PassThrough} prefix fails with {@link
 *       OptionErrorClass#UNKNOWN_OPTION}: the message names the closest valid key when there is a
 *       plausible one, then lists every valid key;
 *   <li>every declared option given is parsed to its type and passes its checks, else {@link
 *       OptionErrorClass#INVALID_OPTION_VALUE} naming the option, the value (unless secret) and
 *       what is allowed; a required option that is missing or blank fails with {@link
 *       OptionErrorClass#MISSING_OPTION};
 *   <li>then every {@link OptionRule} holds.
 * </ul>
 *
 * <p>Messages start with the catalog's label, e.g. {@code Delta source option maxFilesPerTrigger
 * must be >= 1, was '0'}; the exception is made by the catalog's {@link OptionFailures} (by default
 * an {@link InvalidOptionException}). Immutable and thread-safe.
 */
@PublicEvolving
public final class OptionsCatalog {
  private static final String REDACTED = "<redacted>";

  private final String id;
  private final String title;
  private final String label;
  private final String summary;
  private final List<Option<?>> options;
  private final List<PassThrough> passThroughs;
  private final List<OptionRule> rules;
  private final OptionFailures failures;
  private final Map<String, Option<?>> byLowerName;

  private OptionsCatalog(Builder b) {
    this.id = b.id;
    this.title = b.title;
    this.label = b.label != null ? b.label : b.title;
    this.summary = b.summary;
    this.options = List.copyOf(b.options);
    this.passThroughs = List.copyOf(b.passThroughs);
    this.rules = List.copyOf(b.rules);
    this.failures = b.failures;
    this.byLowerName = new LinkedHashMap<>();
    for (Option<?> option : options) {
      index(option.key(), option);
      option.aliases().forEach(alias -> index(alias, option));
    }
  }

  private void index(String name, Option<?> option) {
    Option<?> previous = byLowerName.put(name.toLowerCase(Locale.ROOT), option);
    if (previous != null) {
      throw new IllegalArgumentException(
          title + " declares option name '" + name + "' twice (names ignore case)");
    }
  }

  /**
   * Starts a catalog.
   *
   * @param id the reference file's name, e.g. {@code kafka-source} for {@code
   *     docs/options/kafka-source.md}
   * @param title what the options configure, e.g. {@code Kafka source}; also the label that starts
   *     messages unless {@link Builder#label} says otherwise
   */
  public static Builder builder(String id, String title) {
    return new Builder(id, title);
  }

  /** Collects a catalog's parts; {@link #build()} checks that no name is declared twice. */
  @PublicEvolving
  public static final class Builder {
    private final String id;
    private final String title;
    private String label;
    private String summary = "";
    private final List<Option<?>> options = new ArrayList<>();
    private final List<PassThrough> passThroughs = new ArrayList<>();
    private final List<OptionRule> rules = new ArrayList<>();
    private OptionFailures failures = OptionFailures.STANDARD;

    private Builder(String id, String title) {
      this.id = Objects.requireNonNull(id, "id");
      this.title = Objects.requireNonNull(title, "title");
    }

    /** The words that start messages, e.g. {@code Delta CDF source}; default the title. */
    public Builder label(String label) {
      this.label = Objects.requireNonNull(label, "label");
      return this;
    }

    /** A paragraph for the reference: where the options are set, what they are named after. */
    public Builder summary(String summary) {
      this.summary = Objects.requireNonNull(summary, "summary");
      return this;
    }

    /** Adds options, in the order the reference lists them. */
    public Builder options(List<? extends Option<?>> more) {
      options.addAll(more);
      return this;
    }

    /** Adds options, in the order the reference lists them. */
    public Builder options(Option<?>... more) {
      return options(List.of(more));
    }

    /** Adds a pass-through prefix. */
    public Builder passThrough(PassThrough passThrough) {
      passThroughs.add(Objects.requireNonNull(passThrough, "passThrough"));
      return this;
    }

    /** Adds a cross-field rule, run in the order added. */
    public Builder rule(OptionRule rule) {
      rules.add(Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** How problems become exceptions; default {@link OptionFailures#STANDARD}. */
    public Builder failures(OptionFailures failures) {
      this.failures = Objects.requireNonNull(failures, "failures");
      return this;
    }

    /**
     * The catalog.
     *
     * @throws IllegalArgumentException if a key or alias is declared twice (ignoring case)
     */
    public OptionsCatalog build() {
      return new OptionsCatalog(this);
    }
  }

  /** The reference file's name, e.g. {@code kafka-source}. */
  public String id() {
    return id;
  }

  /** What the options configure, e.g. {@code Kafka source}. */
  public String title() {
    return title;
  }

  /** The words that start messages. */
  public String label() {
    return label;
  }

  /** The reference's introduction. */
  public String summary() {
    return summary;
  }

  /** Every declared option, in declaration order. */
  public List<Option<?>> options() {
    return options;
  }

  /** The pass-through prefixes. */
  public List<PassThrough> passThroughs() {
    return passThroughs;
  }

  /** The cross-field rules. */
  public List<OptionRule> rules() {
    return rules;
  }

  /** The declared keys, sorted. */
  public SortedSet<String> validKeys() {
    return options.stream().map(Option::key).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The declared option named {@code key} or one of its aliases (ignoring case), if any. */
  public Optional<Option<?>> find(String key) {
    return Optional.ofNullable(byLowerName.get(key.trim().toLowerCase(Locale.ROOT)));
  }

  /** The valid key a mistyped {@code key} most likely meant, if one is close enough. */
  public Optional<String> closestKey(String key) {
    for (PassThrough p : passThroughs) {
      Optional<Option<?>> prefixed = find(p.prefix() + key.trim());
      if (prefixed.isPresent()) {
        return Optional.of(prefixed.get().key());
      }
    }
    return ClosestKey.among(byLowerName.keySet(), key).map(name -> byLowerName.get(name).key());
  }

  /** {@link #validate(Map, String)} without a subject. */
  public OptionValues validate(Map<String, String> given) {
    return validate(given, "");
  }

  /**
   * Checks {@code given} (see the class comment) and returns the typed values.
   *
   * @param subject words naming what is configured, added to the unknown- and missing-option
   *     messages, e.g. {@code for s3a://lake/orders}; may be empty
   * @throws LakestreamException made by this catalog's {@link OptionFailures}
   */
  public OptionValues validate(Map<String, String> given, String subject) {
    String where = subject == null || subject.isBlank() ? "" : " " + subject.trim();
    Map<String, String> canonical = new LinkedHashMap<>();
    Map<String, String> spelling = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, String> entry : new TreeMap<>(given).entrySet()) {
      String key = Objects.requireNonNull(entry.getKey(), "option key").trim();
      String value = Objects.requireNonNull(entry.getValue(), key);
      Optional<String> name = canonicalName(key);
      if (name.isEmpty()) {
        unknown.add(key);
        continue;
      }
      String previous = spelling.put(name.get(), key);
      if (previous != null) {
        throw failure(
            OptionErrorClass.CONFLICTING_OPTIONS,
            name.get(),
            "option "
                + name.get()
                + " is given twice, as '"
                + previous
                + "' and '"
                + key
                + "' (keys ignore case): give it once");
      }
      canonical.put(name.get(), value);
    }
    if (!unknown.isEmpty()) {
      throw unknown(unknown, where);
    }
    Map<Option<?>, Object> parsed = new LinkedHashMap<>();
    for (Option<?> option : options) {
      parse(option, canonical.get(option.key()), where).ifPresent(v -> parsed.put(option, v));
    }
    OptionValues values = new OptionValues(this, canonical, parsed);
    rules.forEach(rule -> rule.check(values));
    return values;
  }

  /** The declared spelling of {@code key}, or empty if it is unknown; refuses owned settings. */
  private Optional<String> canonicalName(String key) {
    Optional<Option<?>> declared = find(key);
    if (declared.isPresent()) {
      return Optional.of(declared.get().key());
    }
    for (PassThrough p : passThroughs) {
      if (!p.matches(key) || key.length() == p.prefix().length() || p.isClosed(key)) {
        continue;
      }
      Optional<String> refusal = p.refusal(key);
      if (refusal.isPresent()) {
        throw failure(
            OptionErrorClass.UNSUPPORTED_OPTION,
            key,
            "option " + key + " is not supported: " + refusal.get());
      }
      return Optional.of(p.canonical(key));
    }
    return Optional.empty();
  }

  private <T> Optional<T> parse(Option<T> option, String text, String where) {
    if (text == null || (option.isRequired() && text.isBlank())) {
      if (option.isRequired()) {
        throw failure(
            OptionErrorClass.MISSING_OPTION,
            option.key(),
            "option " + option.key() + " is required" + where + ": " + option.description());
      }
      return Optional.empty();
    }
    T value;
    try {
      value = option.type().parse(text);
    } catch (IllegalArgumentException e) {
      throw invalidValue(option, text, e.getMessage());
    }
    Optional<String> failed = option.failedRequirement(value);
    if (failed.isPresent()) {
      throw failure(
          OptionErrorClass.INVALID_OPTION_VALUE,
          option.key(),
          "option "
              + option.key()
              + " must "
              + failed.get()
              + ", was '"
              + shown(option, text)
              + "'");
    }
    return Optional.of(value);
  }

  private LakestreamException unknown(List<String> unknown, String where) {
    List<String> described = new ArrayList<>();
    for (String key : unknown) {
      described.add(
          "'" + key + "'" + closestKey(key).map(k -> " (did you mean '" + k + "'?)").orElse(""));
    }
    StringBuilder text =
        new StringBuilder("Unknown ")
            .append(label)
            .append(unknown.size() == 1 ? " option " : " options ")
            .append(OptionType.listed(described, " and "))
            .append(where)
            .append(". Valid options: ")
            .append(validKeys());
    for (PassThrough p : passThroughs) {
      text.append(" and ").append(p.prefix()).append("* (").append(p.description()).append(')');
    }
    text.append(". Keys ignore case; unknown keys given: ").append(unknown);
    return failures.create(
        new OptionProblem(OptionErrorClass.UNKNOWN_OPTION, unknown.get(0), text.toString()));
  }

  /**
   * The exception for {@code text} (the value of {@code option}, or null for its default) failing
   * because of {@code reason}, e.g. {@code must be true or false}.
   */
  public LakestreamException invalidValue(Option<?> option, String text, String reason) {
    String value = text != null ? shown(option, text) : option.defaultText().orElse("");
    String detail =
        option.type().choices().isEmpty()
            ? "option "
                + option.key()
                + "='"
                + value
                + "' is invalid: "
                + reason
                + (option.description().isEmpty() ? "" : ". " + option.description())
            : "option "
                + option.key()
                + "='"
                + value
                + "' is not supported: "
                + option.key()
                + " "
                + reason;
    return failure(OptionErrorClass.INVALID_OPTION_VALUE, option.key(), detail);
  }

  /**
   * The exception for options that cannot be combined; {@code text} follows the label, e.g. {@code
   * options a and b cannot both be set: choose one}.
   */
  public LakestreamException conflict(String text) {
    return failure(OptionErrorClass.CONFLICTING_OPTIONS, null, text);
  }

  /**
   * The exception of {@code errorClass} about {@code option} (null if several); the message is the
   * label, a space and {@code text}.
   */
  public LakestreamException failure(OptionErrorClass errorClass, String option, String text) {
    return failures.create(new OptionProblem(errorClass, option, label + " " + text));
  }

  /** The catalog's id, e.g. {@code kafka-source}. */
  @Override
  public String toString() {
    return id;
  }

  private static String shown(Option<?> option, String text) {
    return option.isSecret() ? REDACTED : text;
  }
}
