/**
 * Enhanced fan-out (option consumerMode=efo): the stream consumer registered or reused, and one
 * SubscribeToShard subscription per shard.
 */
package io.lakestream.connectors.kinesis.source.fanout;
