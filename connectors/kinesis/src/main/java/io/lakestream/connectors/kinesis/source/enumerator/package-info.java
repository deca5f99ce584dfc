/**
 * The Kinesis source's enumerator: lists shards, hands a child shard out only after its parents
 * were read to their end, and its state.
 */
package io.lakestream.connectors.kinesis.source.enumerator;
