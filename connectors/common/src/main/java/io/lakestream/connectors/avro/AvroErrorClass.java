package io.lakestream.connectors.avro;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of from_avro ({@link AvroValueDecoder}), whichever connector's records it
 * decodes (Kafka values, Kinesis data). A value that does not decode is no error class: it is the
 * record's fault and goes to the dead letters ({@link AvroDecodeException}).
 */
@PublicEvolving
public enum AvroErrorClass implements ErrorClass {
  /**
   * from_avro: the Avro schema given inline or by file does not parse, is not a record, or has a
   * field of a type from_avro does not read (the message names the field).
   */
  AVRO_SCHEMA_INVALID,
  /**
   * from_avro: the schema registry could not be reached or answered an error other than "schema not
   * found"; the task fails and is retried (records are not dead-lettered for it).
   */
  AVRO_SCHEMA_REGISTRY_UNAVAILABLE
}
