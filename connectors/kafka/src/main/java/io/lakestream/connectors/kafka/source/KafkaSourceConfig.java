package io.lakestream.connectors.kafka.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionValues;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka source's validated options (see {@link KafkaSourceOptions}), made by {@link
 * KafkaSourceBuilder#sanityCheck()}. Immutable; travels in the job graph.
 */
@Internal
public final class KafkaSourceConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TopicSelection topics;
  private final StartingOffsets startingOffsets;
  private final long maxOffsetsPerTrigger;
  private final long minOffsetsPerTrigger;
  private final Duration maxTriggerDelay;
  private final boolean failOnDataLoss;
  private final boolean includeHeaders;
  private final String groupIdPrefix;
  private final Duration partitionDiscoveryInterval;
  private final HashMap<String, String> kafkaProperties;

  KafkaSourceConfig(
      TopicSelection topics,
      StartingOffsets startingOffsets,
      long maxOffsetsPerTrigger,
      long minOffsetsPerTrigger,
      Duration maxTriggerDelay,
      boolean failOnDataLoss,
      boolean includeHeaders,
      String groupIdPrefix,
      Duration partitionDiscoveryInterval,
      Map<String, String> kafkaProperties) {
    this.topics = topics;
    this.startingOffsets = startingOffsets;
    this.maxOffsetsPerTrigger = maxOffsetsPerTrigger;
    this.minOffsetsPerTrigger = minOffsetsPerTrigger;
    this.maxTriggerDelay = maxTriggerDelay;
    this.failOnDataLoss = failOnDataLoss;
    this.includeHeaders = includeHeaders;
    this.groupIdPrefix = groupIdPrefix;
    this.partitionDiscoveryInterval = partitionDiscoveryInterval;
    this.kafkaProperties = new HashMap<>(kafkaProperties);
  }

  /**
   * Resolves options checked by {@link KafkaSourceOptions#CATALOG}: the topics, the starting
   * position and the client properties (with the connection settings normalised by {@link
   * KafkaClientSecurity}).
   *
   * @throws io.lakestream.api.error.LakestreamException if the topics or starting offsets do not
   *     parse (naming the option)
   * @throws io.lakestream.connectors.kafka.security.InvalidKafkaOptionException for a connection
   *     setting that cannot work
   */
  static KafkaSourceConfig of(OptionValues values) {
    Map<String, String> kafka = new HashMap<>(values.passThrough(KafkaSourceOptions.KAFKA_PREFIX));
    // Connection and authentication (TLS, SASL/SCRAM, MSK IAM, MSK port rule), normalised.
    KafkaClientSecurity.fromOptions(values.toMap())
        .clientProperties()
        .forEach((k, v) -> kafka.put((String) k, (String) v));
    boolean latestWhenNoMatch =
        values.get(KafkaSourceOptions.STARTING_OFFSETS_BY_TIMESTAMP_STRATEGY).equals("latest");
    return new KafkaSourceConfig(
        topics(values),
        startingOffsets(values, latestWhenNoMatch),
        values.getOptional(KafkaSourceOptions.MAX_OFFSETS_PER_TRIGGER).orElse(0L),
        values.getOptional(KafkaSourceOptions.MIN_OFFSETS_PER_TRIGGER).orElse(0L),
        values.get(KafkaSourceOptions.MAX_TRIGGER_DELAY),
        values.get(KafkaSourceOptions.FAIL_ON_DATA_LOSS),
        values.get(KafkaSourceOptions.INCLUDE_HEADERS),
        values.get(KafkaSourceOptions.GROUP_ID_PREFIX),
        values.get(KafkaSourceOptions.PARTITION_DISCOVERY_INTERVAL),
        kafka);
  }

  private static TopicSelection topics(OptionValues values) {
    if (values.contains(KafkaSourceOptions.SUBSCRIBE)) {
      return values.convert(KafkaSourceOptions.SUBSCRIBE, TopicSelection::subscribe);
    }
    if (values.contains(KafkaSourceOptions.ASSIGN)) {
      return values.convert(KafkaSourceOptions.ASSIGN, TopicSelection::assign);
    }
    return values.convert(KafkaSourceOptions.SUBSCRIBE_PATTERN, TopicSelection::subscribePattern);
  }

  private static StartingOffsets startingOffsets(OptionValues values, boolean latestWhenNoMatch) {
    if (values.contains(KafkaSourceOptions.STARTING_TIMESTAMP)) {
      return StartingOffsets.timestamp(
          values.get(KafkaSourceOptions.STARTING_TIMESTAMP), latestWhenNoMatch);
    }
    if (values.contains(KafkaSourceOptions.STARTING_OFFSETS_BY_TIMESTAMP)) {
      Option<String> option = KafkaSourceOptions.STARTING_OFFSETS_BY_TIMESTAMP;
      return StartingOffsets.timestamps(
          values.convert(option, json -> StartingOffsets.parsePartitionJson(option.key(), json)),
          latestWhenNoMatch);
    }
    return values.convert(KafkaSourceOptions.STARTING_OFFSETS, StartingOffsets::parse);
  }

  public TopicSelection topics() {
    return topics;
  }

  public StartingOffsets startingOffsets() {
    return startingOffsets;
  }

  /** 0 = no limit. */
  public long maxOffsetsPerTrigger() {
    return maxOffsetsPerTrigger;
  }

  /** 0 = no minimum. */
  public long minOffsetsPerTrigger() {
    return minOffsetsPerTrigger;
  }

  public Duration maxTriggerDelay() {
    return maxTriggerDelay;
  }

  public boolean failOnDataLoss() {
    return failOnDataLoss;
  }

  public boolean includeHeaders() {
    return includeHeaders;
  }

  public String groupIdPrefix() {
    return groupIdPrefix;
  }

  public Duration partitionDiscoveryInterval() {
    return partitionDiscoveryInterval;
  }

  /** Whether epochs are shaped by maxOffsetsPerTrigger or minOffsetsPerTrigger. */
  public boolean rateLimited() {
    return maxOffsetsPerTrigger > 0 || minOffsetsPerTrigger > 0;
  }

  /** The {@code kafka.*} options without the prefix, as given. */
  public Map<String, String> kafkaProperties() {
    return Map.copyOf(kafkaProperties);
  }

  /**
   * Client properties for the admin client and consumer, {@code kafka.*} with the prefix removed.
   */
  public Properties clientProperties() {
    Properties p = new Properties();
    p.putAll(kafkaProperties);
    return p;
  }

  /** The consumer group id offsets are committed to. */
  public String groupId(String queryId, String sourceName) {
    String given = kafkaProperties.get("group.id");
    return given != null ? given : groupIdPrefix + "-" + queryId + "-" + sourceName;
  }

  /** For logs and errors; never includes {@code kafka.*} values (they may hold secrets). */
  @Override
  public String toString() {
    return topics
        + ", "
        + startingOffsets
        + (maxOffsetsPerTrigger > 0 ? ", maxOffsetsPerTrigger=" + maxOffsetsPerTrigger : "")
        + (minOffsetsPerTrigger > 0
            ? ", minOffsetsPerTrigger="
                + minOffsetsPerTrigger
                + ", maxTriggerDelay="
                + maxTriggerDelay
            : "")
        + ", failOnDataLoss="
        + failOnDataLoss;
  }
}
