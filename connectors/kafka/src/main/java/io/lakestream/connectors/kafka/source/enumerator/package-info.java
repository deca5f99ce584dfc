/**
 * The Kafka source's enumerator ({@link
 * io.lakestream.connectors.kafka.source.enumerator.KafkaStreamEnumerator}): finds partitions,
 * resolves {@code startingOffsets} for a new query, assigns partitions to readers, and shapes each
 * epoch under the rate limits ({@link
 * io.lakestream.connectors.kafka.source.enumerator.EpochBudget}). Its checkpoint ({@link
 * io.lakestream.connectors.kafka.source.enumerator.KafkaEnumeratorState}) holds the unassigned
 * splits and every partition ever given, so a restore never restarts one from {@code
 * startingOffsets}. Internal to the source.
 */
package io.lakestream.connectors.kafka.source.enumerator;
