/** The Kinesis source as a Flink source: shards are splits, read with GetRecords. */
package io.lakestream.connectors.kinesis.source;
