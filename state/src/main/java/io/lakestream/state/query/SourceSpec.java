package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * A source as the restart checks see it.
 *
 * @param name the source operator's uid (its identity across restarts)
 * @param type the kind of source, e.g. {@code kafka}, {@code rate}, {@code delta}
 * @param target what it reads, for people (topic, path); changing it is allowed
 */
@Internal
public record SourceSpec(String name, String type, String target) {}
