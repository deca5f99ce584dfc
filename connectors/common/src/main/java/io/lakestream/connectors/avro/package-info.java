/**
 * Spark's {@code from_avro} for record values (Kafka values, Kinesis data): Avro binary decoded
 * with a schema given inline or by file, or the Confluent wire format (magic byte 0, a 4-byte
 * schema id, Avro binary) whose writer schema is fetched from a schema registry by id and resolved
 * against the given (reader) schema ({@link io.lakestream.connectors.avro.AvroValueDecoder}).
 */
package io.lakestream.connectors.avro;
