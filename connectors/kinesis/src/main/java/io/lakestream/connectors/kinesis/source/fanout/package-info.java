/**
 * Enhanced fan-out (option consumerMode=efo): the stream consumer registered or reused, and one
 * SubscribeToShard subscription per shard, made through a reader's {@link
 * io.lakestream.connectors.kinesis.source.fanout.FanOutConnection} (the seam where tests deliver
 * the events they build).
 */
package io.lakestream.connectors.kinesis.source.fanout;
