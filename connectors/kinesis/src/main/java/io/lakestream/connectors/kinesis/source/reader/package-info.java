/** The Kinesis source's reader: GetShardIterator and GetRecords per assigned shard. */
package io.lakestream.connectors.kinesis.source.reader;
