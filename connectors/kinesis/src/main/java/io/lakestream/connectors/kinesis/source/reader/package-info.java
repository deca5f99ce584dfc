/**
 * The Kinesis source's reader: GetShardIterator and GetRecords per assigned shard, or a
 * SubscribeToShard subscription per shard with consumerMode efo.
 */
package io.lakestream.connectors.kinesis.source.reader;
