package io.lakestream.operators.observe;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.state.query.QueryContext;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
  private Observe() {}

  /**
   * Observes {@code aggregates} of {@code stream}'s rows per epoch under {@code name}; the
   * operator's uid is {@code observe-<name>} (it keeps no state, so it may be added to or removed
   * from a query between runs).
   *
   * @throws LakestreamException ({@link OperatorErrorClass#INVALID_OBSERVATION}) without
   *     aggregates, or with two of the same name
   */
  @SafeVarargs
  public static <T> SingleOutputStreamOperator<T> observe(
      DataStream<T> stream, QueryContext query, String name, ObservedAggregate<T>... aggregates) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(name, "name");
    List<ObservedAggregate<T>> list = List.of(aggregates);
    Set<String> names = new HashSet<>();
    for (ObservedAggregate<T> aggregate : list) {
      if (!names.add(aggregate.name())) {
        throw invalid(
            name,
            "two aggregates are named '" + aggregate.name() + "'",
            "Give each aggregate a distinct name.");
      }
    }
    if (list.isEmpty()) {
      throw invalid(
          name,
          "it has no aggregates",
          "Pass at least one, e.g. ObservedAggregate.count(\"rows\").");
    }
    return stream
        .transform("observe " + name, stream.getType(), new ObserveOperator<>(query, name, list))
        .uid("observe-" + name)
        .setParallelism(stream.getParallelism());
  }

  private static LakestreamException invalid(String name, String why, String what) {
    return new LakestreamException(
        OperatorErrorClass.INVALID_OBSERVATION, "observe('" + name + "'): " + why + ". " + what);
  }
}
