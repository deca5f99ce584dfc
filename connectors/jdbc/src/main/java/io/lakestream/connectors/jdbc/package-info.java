/**
 * A bounded JDBC pull as a Flink source, with the option names of Spark's {@code jdbc} reader:
 * {@code url}, {@code dbtable} or {@code query}, {@code partitionColumn} with {@code lowerBound},
 * {@code upperBound} and {@code numPartitions}, {@code fetchsize}, {@code user}; the password comes
 * from a secret file ({@code passwordFile}) or an environment variable ({@code passwordEnv}), never
 * from the URL or an option value ({@link io.lakestream.connectors.jdbc.JdbcSourceOptions}).
 *
 * <p>The table is cut into partitions of the numeric partition column exactly as Spark cuts it (the
 * bounds only decide the stride; rows outside them and NULLs land in the first and last
 * partitions). Each partition is one split; it is emitted whole, followed by a {@link
 * io.lakestream.connectors.jdbc.JdbcRecord#isPartitionEnd() partition end}, so a writer can commit
 * it atomically and idempotently. Splits not yet ended are in the checkpoint and are read again
 * from their start after a restore.
 */
package io.lakestream.connectors.jdbc;
