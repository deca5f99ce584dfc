/**
 * A Delta table's change data feed as a Flink source, like Spark's {@code
 * readStream.format("delta").option("readChangeFeed", "true")}: build a {@link
 * io.lakestream.connectors.delta.cdf.source.DeltaCdfSource} with {@link
 * io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder} from Spark's options ({@link
 * io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceOptions}). Rows are the table's columns,
 * then {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp}; each is emitted
 * exactly once per checkpointed position. A version without the change data feed enabled fails the
 * job with the message of a {@link
 * io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException}.
 */
package io.lakestream.connectors.delta.cdf.source;
