package io.lakestream.state.query;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * A stateful function or operator that describes its state, so a change to it is caught before a
 * restart instead of failing deep inside Flink's restore. Change the description whenever the
 * state's layout changes.
 */
@PublicEvolving
public interface DeclaresStateSchema {

  /** For example {@code "seen: ValueState<Long>; v2"}. */
  String stateSchema();
}
