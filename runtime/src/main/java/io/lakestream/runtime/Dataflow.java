package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.state.query.QueryContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Builds a query's sources, operators and sinks on an environment the runtime has configured.
 * Sources and sinks that take part in the query's bookkeeping (offsets, commits, availableNow) get
 * the {@link QueryContext}. Every operator needs an explicit {@code uid}.
 */
@PublicEvolving
@FunctionalInterface
public interface Dataflow {
  void build(StreamExecutionEnvironment env, QueryContext query);
}
