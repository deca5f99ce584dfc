package io.lakestream.connectors.kinesis.source.enumerator;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader to enumerator: a closed shard was read to its end (sent again after a restore, so the
 * enumerator learns of it even when the first event came after its checkpoint).
 */
@Internal
public record ShardFinished(String shardId) implements SourceEvent {}
