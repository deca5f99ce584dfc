/**
 * The Kafka source's reader ({@link
 * io.lakestream.connectors.kafka.source.reader.KafkaStreamReader}): one consumer in assign mode on
 * the task thread. The checkpointed position of a partition is the offset after the last record
 * emitted, so a restore neither skips nor repeats records; it reads no further than an epoch's
 * grant or an availableNow run's end. Lost offsets fail with {@code KafkaDataLossException} unless
 * {@code failOnDataLoss=false}. Internal to the source.
 */
package io.lakestream.connectors.kafka.source.reader;
