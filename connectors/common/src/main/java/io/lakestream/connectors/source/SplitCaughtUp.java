package io.lakestream.connectors.source;

import org.apache.flink.api.connector.source.SourceEvent;

/** Reader to enumerator: a split has been read up to the end captured when the run started. */
public record SplitCaughtUp(String splitId) implements SourceEvent {}
