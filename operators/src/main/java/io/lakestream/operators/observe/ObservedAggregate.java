package io.lakestream.operators.observe;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Objects;

/**
 * One aggregate an {@link Observe#observe} computes over each epoch's rows, published in progress
 * as {@code observedMetrics.<observation>.<name>}: {@link #count}, {@link #countIf}, {@link #sum},
 * {@link #min}, {@link #max}, {@link #avg} or a {@link #ratio} of two of them. Counts are whole
 * numbers; sum, min, max and avg are doubles (exact for whole numbers up to 2^53). Min, max and avg
 * of an epoch without rows are null, as in Spark. The functions run on every row and must not
 * throw: an exception fails the task, as any operator's would.
 *
 * @param <T> the stream's row type
 */
@PublicEvolving
public final class ObservedAggregate<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What an aggregate computes. */
  @PublicEvolving
  public enum Kind {
    COUNT,
    COUNT_IF,
    SUM,
    MIN,
    MAX,
    AVG,
    RATIO
  }

  /** A row's value for an aggregate; serializable, as it ships inside the job. */
  @PublicEvolving
  @FunctionalInterface
  public interface Value<T> extends Serializable {
    double of(T row);
  }

  /** Whether a row counts for {@link #countIf}; serializable, as it ships inside the job. */
  @PublicEvolving
  @FunctionalInterface
  public interface Condition<T> extends Serializable {
    boolean test(T row);
  }

  private final String name;
  private final Kind kind;
  private final Value<T> value;
  private final Condition<T> condition;
  private final String numerator;
  private final String denominator;

  private ObservedAggregate(String name, Kind kind, Value<T> value, Condition<T> condition) {
    this(name, kind, value, condition, null, null);
  }

  private ObservedAggregate(
      String name,
      Kind kind,
      Value<T> value,
      Condition<T> condition,
      String numerator,
      String denominator) {
    this.name = Objects.requireNonNull(name, "name");
    this.kind = kind;
    this.value = value;
    this.condition = condition;
    this.numerator = numerator;
    this.denominator = denominator;
  }

  /** The epoch's rows. */
  public static <T> ObservedAggregate<T> count(String name) {
    return new ObservedAggregate<>(name, Kind.COUNT, null, null);
  }

  /** The epoch's rows for which {@code condition} holds (e.g. malformed rows, for a ratio). */
  public static <T> ObservedAggregate<T> countIf(String name, Condition<T> condition) {
    return new ObservedAggregate<>(
        name, Kind.COUNT_IF, null, Objects.requireNonNull(condition, "condition"));
  }

  /** The sum of {@code value} over the epoch's rows (0 without rows). */
  public static <T> ObservedAggregate<T> sum(String name, Value<T> value) {
    return new ObservedAggregate<>(name, Kind.SUM, Objects.requireNonNull(value, "value"), null);
  }

  /** The smallest {@code value} of the epoch's rows. */
  public static <T> ObservedAggregate<T> min(String name, Value<T> value) {
    return new ObservedAggregate<>(name, Kind.MIN, Objects.requireNonNull(value, "value"), null);
  }

  /** The largest {@code value} of the epoch's rows. */
  public static <T> ObservedAggregate<T> max(String name, Value<T> value) {
    return new ObservedAggregate<>(name, Kind.MAX, Objects.requireNonNull(value, "value"), null);
  }

  /** The mean {@code value} of the epoch's rows (their sum over their count, once merged). */
  public static <T> ObservedAggregate<T> avg(String name, Value<T> value) {
    return new ObservedAggregate<>(name, Kind.AVG, Objects.requireNonNull(value, "value"), null);
  }

  /**
   * The epoch's value of aggregate {@code numerator} over that of {@code denominator}, both other
   * aggregates of the same observation (e.g. {@code ratio("malformedRatio", "malformed", "rows")});
   * computed from the merged epoch, so exact; null when the denominator is 0.
   */
  public static <T> ObservedAggregate<T> ratio(String name, String numerator, String denominator) {
    return new ObservedAggregate<>(
        name,
        Kind.RATIO,
        null,
        null,
        Objects.requireNonNull(numerator, "numerator"),
        Objects.requireNonNull(denominator, "denominator"));
  }

  public String name() {
    return name;
  }

  public Kind kind() {
    return kind;
  }

  /** For {@link #ratio}: the numerator's name; else null. */
  String numerator() {
    return numerator;
  }

  /** For {@link #ratio}: the denominator's name; else null. */
  String denominator() {
    return denominator;
  }

  /** Adds {@code row} to {@code into}, the aggregate's share of the current epoch. */
  void add(T row, ObservedShare into) {
    switch (kind) {
      case COUNT -> into.count++;
      case COUNT_IF -> into.count += condition.test(row) ? 1 : 0;
      case RATIO -> {} // computed from the merged epoch
      default -> into.add(value.of(row));
    }
  }
}
