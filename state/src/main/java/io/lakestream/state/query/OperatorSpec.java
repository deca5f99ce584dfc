package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * A stateful operator as the restart checks see it.
 *
 * @param uid the operator uid
 * @param stateSchema a description of its state (key type and declared state); a change means the
 *     old state cannot be read
 */
@Internal
public record OperatorSpec(String uid, String stateSchema) {}
