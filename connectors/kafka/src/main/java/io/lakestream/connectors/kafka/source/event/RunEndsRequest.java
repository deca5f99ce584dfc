package io.lakestream.connectors.kafka.source.event;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/** Reader to enumerator: send me the {@link RunEnds} of this availableNow run. */
@Internal
public record RunEndsRequest() implements SourceEvent {}
