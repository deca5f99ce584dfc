package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/** Reader to enumerator: a split has been read up to the end captured when the run started. */
@Internal
public record SplitCaughtUp(String splitId) implements SourceEvent {}
