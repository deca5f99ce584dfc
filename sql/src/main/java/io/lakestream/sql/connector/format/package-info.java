/**
 * How a streaming table's record values become its columns, whatever the connector (Kafka values,
 * Kinesis data): JSON objects or Avro records ({@code from_avro}) decoded into the declared columns
 * ({@link io.lakestream.sql.connector.format.ValueDecoder}), the format options they share ({@link
 * io.lakestream.sql.connector.format.ValueFormatOptions}), and the dead-letter Delta table a value
 * that does not decode goes to ({@link io.lakestream.sql.connector.format.DeadLetterTable}).
 */
package io.lakestream.sql.connector.format;
