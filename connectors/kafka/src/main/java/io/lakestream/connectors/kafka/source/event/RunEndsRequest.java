package io.lakestream.connectors.kafka.source.event;

import org.apache.flink.api.connector.source.SourceEvent;

/** Reader to enumerator: send me the {@link RunEnds} of this availableNow run. */
public record RunEndsRequest() implements SourceEvent {}
