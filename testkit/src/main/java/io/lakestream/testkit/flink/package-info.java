/**
 * Flink for tests, set up like production (RocksDB, incremental checkpoints retained on
 * cancellation): an in-JVM {@link io.lakestream.testkit.flink.FlinkMiniCluster} ({@link
 * io.lakestream.testkit.flink.FlinkMiniClusterExtension}) or a real standalone session cluster of
 * separate JobManager and TaskManager JVMs ({@link io.lakestream.testkit.flink.FlinkCluster},
 * {@link io.lakestream.testkit.flink.FlinkClusterExtension}, {@link
 * io.lakestream.testkit.flink.FlinkCommand} for {@code bin/flink}; failures are {@link
 * io.lakestream.testkit.flink.FlinkClusterException}s ending with the process's log). Also waits on
 * completed checkpoints instead of sleeping ({@link
 * io.lakestream.testkit.flink.CompletedCheckpoints}), retained checkpoints ({@link
 * io.lakestream.testkit.flink.RetainedCheckpoints}), the S3 file system plugin, and the cluster's
 * lib/ jars split into Flink's own and the shaded Hadoop client ({@link
 * io.lakestream.testkit.flink.FlinkLib}), for JVMs started on a chosen class path.
 */
package io.lakestream.testkit.flink;
