package io.lakestream.connectors.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The Kinesis source's error classes; option errors have the options catalog's classes ({@code
 * UNKNOWN_OPTION}, {@code INVALID_OPTION_VALUE}, ...).
 */
@PublicEvolving
public enum KinesisErrorClass implements ErrorClass {
  /**
   * The stream's shards could not be listed (no such stream, wrong region or endpoint, no access):
   * the message names options streamName, region and endpoint, never the credentials.
   */
  KINESIS_SOURCE_STREAM_UNAVAILABLE,
  /** A shard could not be read (the task fails and the shard is read again from its checkpoint). */
  KINESIS_SOURCE_READ_FAILED,
  /**
   * consumerMode efo: the stream consumer could not be registered, found or used (the stream's
   * consumer limit, no such registeredConsumerId, no permission); the message names the option.
   */
  KINESIS_SOURCE_CONSUMER_FAILED,
  /**
   * consumerMode efo: SubscribeToShard kept failing (another subscription of the same consumer on
   * the shard, e.g. two queries with one consumerName; no permission); the message names the
   * option.
   */
  KINESIS_SOURCE_SUBSCRIPTION_FAILED
}
