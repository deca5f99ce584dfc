package io.lakestream.connectors.kafka.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.kafka.security.KafkaSecurityOptions;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionRule;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.PassThrough;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kafka source's options, named as in Spark's Kafka source. {@link #CATALOG} checks a user's
 * option map (keys ignore case): unknown options are an error naming the closest valid one, a bad
 * value names the option, and options prefixed {@code kafka.} go to the Kafka consumer unchanged
 * (except the few the source must own, which are refused with the option to use instead, and
 * misspelt {@code kafka.security.*}/{@code kafka.sasl.*}/{@code kafka.ssl.*} options, which are
 * unknown). See {@code docs/options/kafka-source.md}.
 */
@PublicEvolving
public final class KafkaSourceOptions {
  /** Prefix of options passed to the Kafka consumer and admin client. */
  public static final String KAFKA_PREFIX = "kafka.";

  public static final Option<String> SUBSCRIBE =
      Option.key("subscribe")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Comma-separated topics to read. Exactly one of subscribe, subscribePattern, assign.");

  public static final Option<String> SUBSCRIBE_PATTERN =
      Option.key("subscribePattern")
          .stringType()
          .noDefaultValue()
          .withDescription("Java regex; every topic whose whole name matches is read.");

  public static final Option<String> ASSIGN =
      Option.key("assign")
          .stringType()
          .noDefaultValue()
          .withDescription("JSON of fixed partitions to read, e.g. {\"orders\":[0,1]}.");

  public static final Option<String> STARTING_OFFSETS =
      Option.key("startingOffsets")
          .stringType()
          .defaultValue("latest")
          .withDescription(
              "Where a NEW query starts: earliest, latest or JSON {\"topic\":{\"0\":23,\"1\":-2}}"
                  + " (-2 earliest, -1 latest). A resumed query uses its checkpoint.");

  public static final Option<Long> STARTING_TIMESTAMP =
      Option.key("startingTimestamp")
          .longType()
          .noDefaultValue()
          .check(ts -> ts >= 0, "be epoch millis >= 0")
          .withDescription(
              "Epoch millis; a new query starts every partition at its first record with a timestamp"
                  + " >= this. Wins over startingOffsetsByTimestamp and startingOffsets.");

  public static final Option<String> STARTING_OFFSETS_BY_TIMESTAMP =
      Option.key("startingOffsetsByTimestamp")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "JSON {\"topic\":{\"0\":1700000000000}} of per-partition timestamps for a new query."
                  + " Wins over startingOffsets.");

  public static final Option<String> STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY =
      Option.key("startingOffsetsByTimestampStrategy")
          .choiceType("error", "latest")
          .defaultValue("error")
          .withDescription(
              "When a starting timestamp matches no record: error (fail) or latest (start there).");

  public static final Option<Long> MAX_OFFSETS_PER_TRIGGER =
      Option.key("maxOffsetsPerTrigger")
          .longType()
          .noDefaultValue()
          .check(records -> records > 0, "be a positive number of records")
          .withDescription(
              "At most this many records per epoch (between two checkpoints), split across"
                  + " partitions in proportion to their backlog.");

  public static final Option<Long> MIN_OFFSETS_PER_TRIGGER =
      Option.key("minOffsetsPerTrigger")
          .longType()
          .noDefaultValue()
          .check(records -> records > 0, "be a positive number of records")
          .withDescription(
              "An epoch admits new records only when at least this many are available or"
                  + " maxTriggerDelay has passed since the last epoch that admitted records.");

  public static final Option<Duration> MAX_TRIGGER_DELAY =
      Option.key("maxTriggerDelay")
          .durationType()
          .defaultValue(Duration.ofMinutes(15))
          .notNegative()
          .withDescription("Longest wait for minOffsetsPerTrigger records, e.g. 15m.");

  public static final Option<Boolean> FAIL_ON_DATA_LOSS =
      Option.key("failOnDataLoss")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Fail when unread records are gone (topic deleted, offsets removed by retention);"
                  + " false logs the lost range and continues from the earliest available offset.");

  public static final Option<Boolean> INCLUDE_HEADERS =
      Option.key("includeHeaders")
          .booleanType()
          .defaultValue(false)
          .withDescription("Copy record headers into KafkaRecord.headerKeys/headerValues.");

  public static final Option<String> GROUP_ID_PREFIX =
      Option.key("groupIdPrefix")
          .stringType()
          .defaultValue("lakestream-kafka-source")
          .withDescription(
              "Prefix of the generated consumer group id (prefix-queryId-source) when"
                  + " kafka.group.id is not set. Offsets are committed to it on each completed"
                  + " checkpoint, for monitoring only.");

  public static final Option<Duration> PARTITION_DISCOVERY_INTERVAL =
      Option.key("partitionDiscoveryInterval")
          .durationType()
          .defaultValue(Duration.ofSeconds(30))
          .positive()
          .withDescription(
              "How often new partitions and deleted topics are looked for (not in availableNow runs).");

  private static final List<Option<?>> ALL =
      List.of(
          SUBSCRIBE,
          SUBSCRIBE_PATTERN,
          ASSIGN,
          STARTING_OFFSETS,
          STARTING_TIMESTAMP,
          STARTING_OFFSETS_BY_TIMESTAMP,
          STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY,
          MAX_OFFSETS_PER_TRIGGER,
          MIN_OFFSETS_PER_TRIGGER,
          MAX_TRIGGER_DELAY,
          FAIL_ON_DATA_LOSS,
          INCLUDE_HEADERS,
          GROUP_ID_PREFIX,
          PARTITION_DISCOVERY_INTERVAL);

  /** Every option of the Kafka source (its own, then the connection options), and its rules. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("kafka-source", "Kafka source")
          .summary(
              "Options of `KafkaSourceBuilder.option(key, value)`, named as in Spark's Kafka"
                  + " source (`spark.readStream.format(\"kafka\").option(...)`).")
          .options(withSecurityOptions())
          .passThrough(
              PassThrough.prefix(
                      KAFKA_PREFIX, "passed to the Kafka consumer, e.g. kafka.max.poll.records")
                  .refusing(
                      "auto.offset.reset",
                      "use startingOffsets (and failOnDataLoss for lost offsets)")
                  .refusing(
                      "enable.auto.commit", "offsets are committed on each completed checkpoint")
                  .refusing("key.deserializer", "keys are always bytes; decode them downstream")
                  .refusing(
                      "value.deserializer",
                      "values are always bytes; use fromJson or decode downstream")
                  .refusing(
                      "interceptor.classes",
                      "consumer interceptors are not supported (as in Spark)")
                  .closedUnder("kafka.security.", "kafka.sasl.", "kafka.ssl."))
          .rule(OptionRule.exactlyOneOf(SUBSCRIBE, SUBSCRIBE_PATTERN, ASSIGN))
          .rule(OptionRule.notAbove(MIN_OFFSETS_PER_TRIGGER, MAX_OFFSETS_PER_TRIGGER))
          .build();

  private KafkaSourceOptions() {}

  /** Every option key this source accepts besides {@code kafka.*}. */
  public static List<Option<?>> options() {
    return ALL;
  }

  private static List<Option<?>> withSecurityOptions() {
    List<Option<?>> all = new ArrayList<>(ALL);
    all.addAll(KafkaSecurityOptions.ALL);
    return all;
  }
}
