package io.lakestream.connectors.kafka;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the Kafka source and sink. Option keys and values the options catalog
 * refuses carry its {@link io.lakestream.connectors.options.OptionErrorClass} classes instead; the
 * checks only Kafka can make (connection settings, the transaction timeout) carry {@link
 * #KAFKA_INVALID_OPTION}.
 */
@PublicEvolving
public enum KafkaErrorClass implements ErrorClass {
  /** Records the query had not read are gone (topic deleted, retention); see failOnDataLoss. */
  KAFKA_DATA_LOSS,
  /**
   * The Kafka servers did not answer in time or refused a request for a reason other than login.
   */
  KAFKA_UNREACHABLE,
  /** Kafka refused the client's login (SASL) or the TLS handshake failed. */
  KAFKA_AUTHENTICATION_FAILED,
  /** A Kafka connection or producer option that cannot work (the message names it). */
  KAFKA_INVALID_OPTION,
  /** The starting offsets or timestamps do not fit the partitions the query reads. */
  KAFKA_INVALID_STARTING_OFFSETS,
  /** A Kafka sink setting that cannot be used: no value column, or output mode complete. */
  KAFKA_SINK_INVALID_SETTING,
  /** A row the Kafka sink cannot turn into a record (for example it names no topic). */
  KAFKA_SINK_INVALID_RECORD
}
