package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * A sink as the restart checks see it.
 *
 * @param name the sink's uid
 * @param kind the kind of sink, which decides what it may be changed into
 * @param target where it writes (table path, topic), for people and for the path checks
 */
@Internal
public record SinkSpec(String name, SinkKind kind, String target) {}
