/**
 * A Delta table as a Flink source, like Spark's {@code readStream.format("delta")}: build a {@link
 * io.lakestream.connectors.delta.source.DeltaSource} with {@link
 * io.lakestream.connectors.delta.source.DeltaSourceBuilder} from Spark's options ({@link
 * io.lakestream.connectors.delta.source.DeltaSourceOptions}; unknown keys and bad values fail at
 * {@code build()} naming the option). Every row of every admitted file is emitted exactly once per
 * checkpointed position; a version that removes or rewrites data fails the query with a {@code
 * DeltaChangeCommitException} unless {@code skipChangeCommits}. {@link
 * io.lakestream.connectors.delta.source.DeltaStreamSource} and {@link
 * io.lakestream.connectors.delta.source.DeltaStreamSourceBuilder} hold what the CDF source shares.
 */
package io.lakestream.connectors.delta.source;
