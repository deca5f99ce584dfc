/**
 * A Delta table's change data feed, Flink-free: the batch read {@link
 * io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed} (Delta's {@code table_changes}, rows with
 * {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp}), and what it shares
 * with the streaming CDF source: which files of a version are change files ({@link
 * io.lakestream.connectors.delta.cdf.DeltaChangeLog}) and reading them ({@link
 * io.lakestream.connectors.delta.cdf.DeltaChangeFileReader}). A version at which {@code
 * delta.enableChangeDataFeed} was not true fails with {@link
 * io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException} naming it.
 */
package io.lakestream.connectors.delta.cdf;
