package io.lakestream.connectors.kafka.source;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The Kafka source's options, named as in Spark's Kafka source. {@link #validate} checks a user's
 * option map eagerly: unknown options are an error listing the valid ones, a bad value names the
 * option, and options prefixed {@code kafka.} go to the Kafka consumer unchanged (except the few
 * the source must own, which are refused with the option to use instead).
 */
public final class KafkaSourceOptions {
  /** Prefix of options passed to the Kafka consumer and admin client. */
  public static final String KAFKA_PREFIX = "kafka.";

  public static final ConfigOption<String> SUBSCRIBE =
      key("subscribe")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Comma-separated topics to read. Exactly one of subscribe, subscribePattern, assign.");

  public static final ConfigOption<String> SUBSCRIBE_PATTERN =
      key("subscribePattern")
          .stringType()
          .noDefaultValue()
          .withDescription("Java regex; every topic whose whole name matches is read.");

  public static final ConfigOption<String> ASSIGN =
      key("assign")
          .stringType()
          .noDefaultValue()
          .withDescription("JSON of fixed partitions to read, e.g. {\"orders\":[0,1]}.");

  public static final ConfigOption<String> STARTING_OFFSETS =
      key("startingOffsets")
          .stringType()
          .defaultValue("latest")
          .withDescription(
              "Where a NEW query starts: earliest, latest or JSON {\"topic\":{\"0\":23,\"1\":-2}}"
                  + " (-2 earliest, -1 latest). A resumed query uses its checkpoint.");

  public static final ConfigOption<Long> STARTING_TIMESTAMP =
      key("startingTimestamp")
          .longType()
          .noDefaultValue()
          .withDescription(
              "Epoch millis; a new query starts every partition at its first record with a timestamp"
                  + " >= this. Wins over startingOffsetsByTimestamp and startingOffsets.");

  public static final ConfigOption<String> STARTING_OFFSETS_BY_TIMESTAMP =
      key("startingOffsetsByTimestamp")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "JSON {\"topic\":{\"0\":1700000000000}} of per-partition timestamps for a new query."
                  + " Wins over startingOffsets.");

  public static final ConfigOption<String> STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY =
      key("startingOffsetsByTimestampStrategy")
          .stringType()
          .defaultValue("error")
          .withDescription(
              "When a starting timestamp matches no record: error (fail) or latest (start there).");

  public static final ConfigOption<Long> MAX_OFFSETS_PER_TRIGGER =
      key("maxOffsetsPerTrigger")
          .longType()
          .noDefaultValue()
          .withDescription(
              "At most this many records per epoch (between two checkpoints), split across"
                  + " partitions in proportion to their backlog.");

  public static final ConfigOption<Long> MIN_OFFSETS_PER_TRIGGER =
      key("minOffsetsPerTrigger")
          .longType()
          .noDefaultValue()
          .withDescription(
              "An epoch admits new records only when at least this many are available or"
                  + " maxTriggerDelay has passed since the last epoch that admitted records.");

  public static final ConfigOption<Duration> MAX_TRIGGER_DELAY =
      key("maxTriggerDelay")
          .durationType()
          .defaultValue(Duration.ofMinutes(15))
          .withDescription("Longest wait for minOffsetsPerTrigger records, e.g. 15m.");

  public static final ConfigOption<Boolean> FAIL_ON_DATA_LOSS =
      key("failOnDataLoss")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Fail when unread records are gone (topic deleted, offsets removed by retention);"
                  + " false logs the lost range and continues from the earliest available offset.");

  public static final ConfigOption<Boolean> INCLUDE_HEADERS =
      key("includeHeaders")
          .booleanType()
          .defaultValue(false)
          .withDescription("Copy record headers into KafkaRecord.headerKeys/headerValues.");

  public static final ConfigOption<String> GROUP_ID_PREFIX =
      key("groupIdPrefix")
          .stringType()
          .defaultValue("lakestream-kafka-source")
          .withDescription(
              "Prefix of the generated consumer group id (prefix-queryId-source) when"
                  + " kafka.group.id is not set. Offsets are committed to it on each completed"
                  + " checkpoint, for monitoring only.");

  public static final ConfigOption<Duration> PARTITION_DISCOVERY_INTERVAL =
      key("partitionDiscoveryInterval")
          .durationType()
          .defaultValue(Duration.ofSeconds(30))
          .withDescription(
              "How often new partitions and deleted topics are looked for (not in availableNow runs).");

  private static final List<ConfigOption<?>> ALL =
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

  /** Consumer settings the source owns, and what to use instead. */
  private static final Map<String, String> OWNED =
      Map.of(
          "auto.offset.reset", "use startingOffsets (and failOnDataLoss for lost offsets)",
          "enable.auto.commit", "offsets are committed on each completed checkpoint",
          "key.deserializer", "keys are always bytes; decode them downstream",
          "value.deserializer", "values are always bytes; use fromJson or decode downstream",
          "interceptor.classes", "consumer interceptors are not supported (as in Spark)");

  private KafkaSourceOptions() {}

  /** Every option key this source accepts besides {@code kafka.*}. */
  public static List<ConfigOption<?>> options() {
    return ALL;
  }

  /**
   * Checks {@code options} and returns the typed configuration.
   *
   * @throws IllegalArgumentException naming the offending option, with what is allowed
   */
  public static KafkaSourceConfig validate(Map<String, String> options) {
    TreeSet<String> valid = new TreeSet<>();
    ALL.forEach(o -> valid.add(o.key()));
    Map<String, String> kafka = new HashMap<>();
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String k = e.getKey();
      if (k.startsWith(KAFKA_PREFIX)) {
        String client = k.substring(KAFKA_PREFIX.length());
        if (OWNED.containsKey(client)) {
          throw new IllegalArgumentException(
              "Kafka source option " + k + " is not supported: " + OWNED.get(client));
        }
        kafka.put(client, e.getValue());
      } else if (!valid.contains(k)) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "Unknown Kafka source option(s) "
              + unknown
              + ". Valid options: "
              + valid
              + " and kafka.* (passed to the Kafka consumer, e.g. kafka.bootstrap.servers)");
    }
    Configuration conf = Configuration.fromMap(options);
    if (!kafka.containsKey("bootstrap.servers") || kafka.get("bootstrap.servers").isBlank()) {
      throw new IllegalArgumentException(
          "Kafka source option kafka.bootstrap.servers is required (host:port[,host:port])");
    }
    // Connection and authentication (TLS, SASL/SCRAM, MSK IAM, MSK port rule), normalised.
    KafkaClientSecurity.fromOptions(options)
        .clientProperties()
        .forEach((k, v) -> kafka.put((String) k, (String) v));
    int given = 0;
    for (ConfigOption<String> o : List.of(SUBSCRIBE, SUBSCRIBE_PATTERN, ASSIGN)) {
      given += options.containsKey(o.key()) ? 1 : 0;
    }
    if (given != 1) {
      throw new IllegalArgumentException(
          "Kafka source needs exactly one of the options subscribe, subscribePattern, assign; "
              + (given == 0 ? "none was given" : given + " were given"));
    }
    TopicSelection topics =
        options.containsKey(SUBSCRIBE.key())
            ? TopicSelection.subscribe(get(conf, SUBSCRIBE))
            : options.containsKey(ASSIGN.key())
                ? TopicSelection.assign(get(conf, ASSIGN))
                : TopicSelection.subscribePattern(get(conf, SUBSCRIBE_PATTERN));

    String strategy = get(conf, STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY).trim().toLowerCase();
    if (!strategy.equals("error") && !strategy.equals("latest")) {
      throw new IllegalArgumentException(
          "Kafka source option startingOffsetsByTimestampStrategy must be error or latest, was "
              + strategy);
    }
    boolean latestWhenNoMatch = strategy.equals("latest");
    StartingOffsets starting;
    if (options.containsKey(STARTING_TIMESTAMP.key())) {
      long ts = get(conf, STARTING_TIMESTAMP);
      if (ts < 0) {
        throw new IllegalArgumentException(
            "Kafka source option startingTimestamp must be epoch millis >= 0, was " + ts);
      }
      starting = StartingOffsets.timestamp(ts, latestWhenNoMatch);
    } else if (options.containsKey(STARTING_OFFSETS_BY_TIMESTAMP.key())) {
      starting =
          StartingOffsets.timestamps(
              StartingOffsets.parsePartitionJson(
                  STARTING_OFFSETS_BY_TIMESTAMP.key(), get(conf, STARTING_OFFSETS_BY_TIMESTAMP)),
              latestWhenNoMatch);
    } else {
      starting = StartingOffsets.parse(get(conf, STARTING_OFFSETS));
    }

    long max = positive(conf, MAX_OFFSETS_PER_TRIGGER);
    long min = positive(conf, MIN_OFFSETS_PER_TRIGGER);
    if (max > 0 && min > max) {
      throw new IllegalArgumentException(
          "Kafka source option minOffsetsPerTrigger ("
              + min
              + ") must not exceed maxOffsetsPerTrigger ("
              + max
              + ")");
    }
    Duration delay = get(conf, MAX_TRIGGER_DELAY);
    if (delay.isNegative()) {
      throw new IllegalArgumentException(
          "Kafka source option maxTriggerDelay must not be negative, was " + delay);
    }
    Duration discovery = get(conf, PARTITION_DISCOVERY_INTERVAL);
    if (discovery.isNegative() || discovery.isZero()) {
      throw new IllegalArgumentException(
          "Kafka source option partitionDiscoveryInterval must be positive, was " + discovery);
    }
    return new KafkaSourceConfig(
        topics,
        starting,
        max,
        min,
        delay,
        get(conf, FAIL_ON_DATA_LOSS),
        get(conf, INCLUDE_HEADERS),
        get(conf, GROUP_ID_PREFIX),
        discovery,
        kafka);
  }

  private static long positive(Configuration conf, ConfigOption<Long> option) {
    if (!conf.contains(option)) {
      return 0;
    }
    long v = get(conf, option);
    if (v <= 0) {
      throw new IllegalArgumentException(
          "Kafka source option "
              + option.key()
              + " must be a positive number of records, was "
              + v);
    }
    return v;
  }

  private static <T> T get(Configuration conf, ConfigOption<T> option) {
    try {
      return conf.get(option);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Kafka source option "
              + option.key()
              + " has an invalid value '"
              + conf.toMap().get(option.key())
              + "': "
              + option.description(),
          e);
    }
  }
}
