package io.lakestream.connectors.kafka.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kafka.security.KafkaSecurityOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kafka sink's options, named as in Spark's Kafka sink, besides the connection options of
 * {@link KafkaSecurityOptions}. {@link #CATALOG} checks a user's option map (keys ignore case):
 * unknown options are an error naming the closest valid one, a bad value names the option, and
 * other {@code kafka.*} options go to the producer (except the settings the sink owns, which are
 * refused, and misspelt {@code kafka.security.*}/{@code kafka.sasl.*}/{@code kafka.ssl.*} options,
 * which are unknown). See {@code docs/options/kafka-sink.md}.
 */
@PublicEvolving
public final class KafkaSinkOptions {

  /** Prefix of options passed to the Kafka producer. */
  public static final String KAFKA_PREFIX = "kafka.";

  public static final Option<String> TOPIC =
      Option.key("topic")
          .stringType()
          .noDefaultValue()
          .check(topic -> !topic.isBlank(), "not be blank")
          .withDescription(
              "Topic every row is written to. Overrides the topic column, as in Spark; without"
                  + " it every row must carry a topic.");

  public static final Option<String> DELIVERY_GUARANTEE =
      Option.key("deliveryGuarantee")
          .choiceType("exactly-once", "at-least-once")
          .defaultValue("exactly-once")
          .withDescription(
              "exactly-once: each epoch's rows are written in Kafka transactions committed when"
                  + " the epoch's checkpoint completes (consumers must read with"
                  + " isolation.level=read_committed). at-least-once: rows are flushed at each"
                  + " checkpoint; a failure may write some twice.");

  public static final Option<Duration> TRANSACTION_TIMEOUT =
      Option.key("kafka.transaction.timeout.ms")
          .durationType()
          .defaultValue(Duration.ofMinutes(15))
          .withDescription(
              "How long the broker keeps an epoch's transaction open (milliseconds, or a"
                  + " duration such as 15 min). Must not exceed the brokers'"
                  + " transaction.max.timeout.ms (default 15 min) and must exceed the checkpoint"
                  + " interval plus the longest expected checkpoint and recovery time.");

  /** The sink's own options (without the connection options). */
  public static final List<Option<?>> ALL = List.of(TOPIC, DELIVERY_GUARANTEE, TRANSACTION_TIMEOUT);

  /** Every option of the Kafka sink (its own, then the connection options), and its rules. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("kafka-sink", "Kafka sink")
          .summary(
              "Options of `KafkaSinkBuilder.options(map)`, named as in Spark's Kafka sink"
                  + " (`df.writeStream.format(\"kafka\").option(...)`).")
          .options(withSecurityOptions())
          .passThrough(
              PassThrough.prefix(
                      KAFKA_PREFIX,
                      "passed to the Kafka producer, e.g. kafka.linger.ms; must be a producer"
                          + " setting. In a realTime query the sink sends each row at once"
                          + " (linger.ms 0) unless kafka.linger.ms is given: Kafka 4's producer"
                          + " otherwise waits up to 5 ms to fill a batch")
                  .refusing("key.serializer", "records are bytes from the key column")
                  .refusing("value.serializer", "records are bytes from the value column")
                  .refusing(
                      "transactional.id",
                      "transactional ids come from the query (lakestream-<appId>-<sinkName>)")
                  .closedUnder("kafka.security.", "kafka.sasl.", "kafka.ssl."))
          .build();

  private KafkaSinkOptions() {}

  private static List<Option<?>> withSecurityOptions() {
    List<Option<?>> all = new ArrayList<>(ALL);
    all.addAll(KafkaSecurityOptions.ALL);
    return all;
  }
}
