/**
 * {@code 'connector' = 'spark-kinesis'}: a Kinesis data stream as a Flink SQL source with
 * Databricks' {@code kinesis} options, on lakestream's Kinesis source (shard positions in the
 * query's log, maxRecordsPerEpoch, availableNow), its records as Databricks' fixed Kinesis columns
 * or decoded from JSON or Avro data, with records that do not decode written to a dead-letter
 * table.
 */
package io.lakestream.sql.connector.kinesis;
