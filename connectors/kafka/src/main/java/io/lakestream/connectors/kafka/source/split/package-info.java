/**
 * The Kafka source's splits: one partition and the concrete offset of its next record ({@link
 * io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit}), held in reader state with a
 * versioned serializer ({@link
 * io.lakestream.connectors.kafka.source.split.KafkaPartitionSplitSerializer}). Internal to the
 * source.
 */
package io.lakestream.connectors.kafka.source.split;
