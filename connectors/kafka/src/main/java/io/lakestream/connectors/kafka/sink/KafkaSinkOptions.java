package io.lakestream.connectors.kafka.sink;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of the Kafka sink besides the connection options of {@link
 * io.lakestream.connectors.kafka.security.KafkaSecurityOptions}. Other {@code kafka.*} options are
 * passed to the producer if they are producer settings.
 */
public final class KafkaSinkOptions {

  public static final ConfigOption<String> TOPIC =
      ConfigOptions.key("topic")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Topic every row is written to. Overrides the topic column, as in Spark; without"
                  + " it every row must carry a topic.");

  public static final ConfigOption<String> DELIVERY_GUARANTEE =
      ConfigOptions.key("deliveryGuarantee")
          .stringType()
          .defaultValue("exactly-once")
          .withDescription(
              "exactly-once: each epoch's rows are written in Kafka transactions committed when"
                  + " the epoch's checkpoint completes (consumers must read with"
                  + " isolation.level=read_committed). at-least-once: rows are flushed at each"
                  + " checkpoint; a failure may write some twice.");

  public static final ConfigOption<Duration> TRANSACTION_TIMEOUT =
      ConfigOptions.key("kafka.transaction.timeout.ms")
          .durationType()
          .defaultValue(Duration.ofMinutes(15))
          .withDescription(
              "How long the broker keeps an epoch's transaction open (milliseconds, or a"
                  + " duration such as 15 min). Must not exceed the brokers'"
                  + " transaction.max.timeout.ms (default 15 min) and must exceed the checkpoint"
                  + " interval plus the longest expected checkpoint and recovery time.");

  /** The options above. */
  public static final List<ConfigOption<?>> ALL =
      List.of(TOPIC, DELIVERY_GUARANTEE, TRANSACTION_TIMEOUT);

  private KafkaSinkOptions() {}
}
