/**
 * The Kafka source, with Spark Structured Streaming's semantics and options ({@link
 * io.lakestream.connectors.kafka.source.KafkaSourceOptions}): build a {@link
 * io.lakestream.connectors.kafka.source.KafkaStreamSource} with {@link
 * io.lakestream.connectors.kafka.source.KafkaSourceBuilder}. One split per partition; {@code
 * startingOffsets} apply to new queries only (a restored query continues from its checkpointed
 * positions), per-epoch {@code maxOffsetsPerTrigger}/{@code minOffsetsPerTrigger}, availableNow,
 * and {@code failOnDataLoss}. Unknown options and bad values fail at {@code build()} naming the
 * option. Exactly-once: positions are checkpointed with the readers.
 */
package io.lakestream.connectors.kafka.source;
