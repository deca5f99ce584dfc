/**
 * Spark's {@code rate} source, replayable: build a {@link
 * io.lakestream.connectors.rate.source.SequenceSource} with {@link
 * io.lakestream.connectors.rate.source.RateSourceBuilder} (options named as in Spark; invalid ones
 * fail at {@code build()} naming the option). Rows are spread over fixed partitions that behave
 * like Kafka partitions; positions are checkpointed, so a restore neither loses nor repeats rows,
 * and the source never finishes (an availableNow run stops when every partition reached its end).
 */
package io.lakestream.connectors.rate.source;
