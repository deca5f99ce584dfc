package io.lakestream.operators.observe;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.state.query.QueryContext;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Structured Streaming's {@code df.observe(name, aggregates...)}: the stream, unchanged, whose
 * rows' aggregates per epoch the query's progress publishes as {@code observedMetrics.<name>} (and
 * so every listener and {@code lastProgress}), e.g.
 *
 * <pre>{@code
 * Observe.observe(parsed, query, "quality",
 *     ObservedAggregate.count("rows"),
 *     ObservedAggregate.countIf("malformed", r -> r.malformed()))
 * }</pre>
 *
 * <p>Exact under replay: the values of an epoch are those of the rows the epoch committed, counted
 * once, also when the epoch was replayed after a failure; they appear only once the epoch has
 * committed. Rows a bounded input delivers after its last checkpoint count in the epoch of the
 * final checkpoint.
 */
@PublicEvolving
public final class Observe {
  /**
   * The name prefix of the observations {@link #eventTimes} adds; the runtime publishes them as
   * progress's {@code eventTime.min/max/avg}, not under {@code observedMetrics}. Reserved: a user
   * observation may not start with it.
   */
  public static final String EVENT_TIME_PREFIX = "eventTime/";

  private Observe() {}

  /**
   * Observes {@code aggregates} of {@code stream}'s rows per epoch under {@code name}; the
   * operator's uid is {@code observe-<name>} (it keeps no state, so it may be added to or removed
   * from a query between runs).
   *
   * @throws LakestreamException ({@link OperatorErrorClass#INVALID_OBSERVATION}) without
   *     aggregates, with two of the same name, or with a ratio of aggregates it does not have
   */
  @SafeVarargs
  public static <T> SingleOutputStreamOperator<T> observe(
      DataStream<T> stream, QueryContext query, String name, ObservedAggregate<T>... aggregates) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(name, "name");
    List<ObservedAggregate<T>> list = List.of(aggregates);
    validate(name, list);
    return stream
        .transform("observe " + name, stream.getType(), new ObserveOperator<>(query, name, list))
        .uid("observe-" + name)
        .setParallelism(stream.getParallelism());
  }

  /**
   * Observes the event times of {@code stream}'s rows per epoch (count, min, max and avg of {@code
   * eventTime}'s milliseconds) as observation {@link #EVENT_TIME_PREFIX}{@code + watermarkUid}:
   * progress's {@code eventTime} statistics, exact under replay as every observation.
   */
  public static <T> SingleOutputStreamOperator<T> eventTimes(
      DataStream<T> stream,
      QueryContext query,
      String watermarkUid,
      ObservedAggregate.Value<T> eventTime) {
    Objects.requireNonNull(query, "query");
    List<ObservedAggregate<T>> list =
        List.of(
            ObservedAggregate.count("rows"),
            ObservedAggregate.min("min", eventTime),
            ObservedAggregate.max("max", eventTime),
            ObservedAggregate.avg("avg", eventTime));
    String name = EVENT_TIME_PREFIX + watermarkUid;
    return stream
        .transform(
            "event times " + watermarkUid,
            stream.getType(),
            new ObserveOperator<>(query, name, list))
        .uid("observe-" + name)
        .setParallelism(stream.getParallelism());
  }

  /** Refuses no aggregates, two of one name, and a ratio of aggregates that are not there. */
  static void validate(String name, List<? extends ObservedAggregate<?>> aggregates) {
    if (name.startsWith(EVENT_TIME_PREFIX)) {
      throw invalid(
          name,
          "names starting with '" + EVENT_TIME_PREFIX + "' are the event-time statistics'",
          "Choose another name.");
    }
    if (aggregates.isEmpty()) {
      throw invalid(
          name,
          "it has no aggregates",
          "Pass at least one, e.g. ObservedAggregate.count(\"rows\").");
    }
    Set<String> names = new HashSet<>();
    Set<String> counted = new TreeSet<>();
    for (ObservedAggregate<?> aggregate : aggregates) {
      if (!names.add(aggregate.name())) {
        throw invalid(
            name,
            "two aggregates are named '" + aggregate.name() + "'",
            "Give each aggregate a distinct name.");
      }
      if (aggregate.kind() != ObservedAggregate.Kind.RATIO) {
        counted.add(aggregate.name());
      }
    }
    for (ObservedAggregate<?> aggregate : aggregates) {
      if (aggregate.kind() == ObservedAggregate.Kind.RATIO
          && !(counted.contains(aggregate.numerator())
              && counted.contains(aggregate.denominator()))) {
        throw invalid(
            name,
            "ratio '"
                + aggregate.name()
                + "' divides '"
                + aggregate.numerator()
                + "' by '"
                + aggregate.denominator()
                + "', which are not both aggregates of it",
            "Name two of its other aggregates (not ratios): " + counted + ".");
      }
    }
  }

  private static LakestreamException invalid(String name, String why, String what) {
    return new LakestreamException(
        OperatorErrorClass.INVALID_OBSERVATION, "observe('" + name + "'): " + why + ". " + what);
  }
}
