package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * What a query is doing now, like Structured Streaming's {@code StreamingQueryStatus}.
 *
 * @param message e.g. "Waiting for data to arrive", "Stopped"
 * @param isDataAvailable whether the last epoch had input
 * @param isTriggerActive whether the job is running
 */
@PublicEvolving
public record QueryStatus(String message, boolean isDataAvailable, boolean isTriggerActive) {}
