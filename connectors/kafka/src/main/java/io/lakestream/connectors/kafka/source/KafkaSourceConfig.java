package io.lakestream.connectors.kafka.source;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka source's validated options (see {@link KafkaSourceOptions}). Immutable; travels in the
 * job graph.
 *
 * @see KafkaSourceOptions#validate
 */
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
