/**
 * The Kinesis source's splits: one shard and the checkpointed position in it, and its serializer.
 */
package io.lakestream.connectors.kinesis.source.split;
