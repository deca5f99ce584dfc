package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;
import java.util.List;

/**
 * The parts of a query that decide whether a checkpoint can be restored: its sources, stateful
 * operators, sinks, state backend and max parallelism. Stored in the checkpoint location's metadata
 * and compared by {@link RestartCompatibility} before every restart.
 */
@Internal
public record QueryFingerprint(
    List<SourceSpec> sources,
    List<OperatorSpec> statefulOperators,
    List<SinkSpec> sinks,
    String stateBackend,
    int maxParallelism) {

  public QueryFingerprint {
    sources = List.copyOf(sources);
    statefulOperators = List.copyOf(statefulOperators);
    sinks = List.copyOf(sinks);
  }
}
