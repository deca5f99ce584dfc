/**
 * {@code 'connector' = 'spark-kafka'}: a Kafka topic as a Flink SQL source with Spark Structured
 * Streaming's options, on lakestream's Kafka source (offsets in the query's log, rate limits per
 * trigger, availableNow), its records as Spark's fixed Kafka columns or decoded from JSON with
 * malformed records written to a dead-letter table.
 */
package io.lakestream.sql.connector.kafka;
