package io.lakestream.connectors.kafka.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;
import java.io.Serializable;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a NEW query starts reading, as Spark's {@code startingOffsets}, {@code startingTimestamp}
 * and {@code startingOffsetsByTimestamp} say. A resumed query never uses it: its positions come
 * from the checkpoint. Partitions that appear later in a running query start at earliest.
 *
 * <p>Per-partition JSON uses {@code -2} for earliest and {@code -1} for latest. JSON must name
 * every partition of the query, as in Spark; {@link #resolve} fails naming the missing ones.
 */
@Internal
public final class StartingOffsets implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** JSON offset meaning "earliest". */
  public static final long EARLIEST = -2;

  /** JSON offset meaning "latest". */
  public static final long LATEST = -1;

  enum Kind {
    EARLIEST,
    LATEST,
    SPECIFIC,
    TIMESTAMP,
    TIMESTAMP_BY_PARTITION
  }

  private final Kind kind;
  private final String option;
  private final long timestamp;
  private final TreeMap<String, Long> perPartition; // "topic\u0000partition" -> offset/timestamp
  private final boolean latestWhenNoTimestampMatch;

  private StartingOffsets(
      Kind kind,
      String option,
      long timestamp,
      Map<TopicPartition, Long> perPartition,
      boolean latestWhenNoTimestampMatch) {
    this.kind = kind;
    this.option = option;
    this.timestamp = timestamp;
    this.perPartition = new TreeMap<>();
    perPartition.forEach((tp, v) -> this.perPartition.put(key(tp), v));
    this.latestWhenNoTimestampMatch = latestWhenNoTimestampMatch;
  }

  public static StartingOffsets earliest() {
    return new StartingOffsets(Kind.EARLIEST, "startingOffsets", 0, Map.of(), false);
  }

  public static StartingOffsets latest() {
    return new StartingOffsets(Kind.LATEST, "startingOffsets", 0, Map.of(), false);
  }

  /** Explicit offsets; {@link #EARLIEST} and {@link #LATEST} allowed. */
  public static StartingOffsets specific(Map<TopicPartition, Long> offsets) {
    return new StartingOffsets(Kind.SPECIFIC, "startingOffsets", 0, offsets, false);
  }

  /** Every partition starts at its first record with timestamp >= {@code millis}. */
  public static StartingOffsets timestamp(long millis, boolean latestWhenNoMatch) {
    return new StartingOffsets(
        Kind.TIMESTAMP, "startingTimestamp", millis, Map.of(), latestWhenNoMatch);
  }

  /** Per partition, its first record with timestamp >= the given one. */
  public static StartingOffsets timestamps(
      Map<TopicPartition, Long> timestamps, boolean latestWhenNoMatch) {
    return new StartingOffsets(
        Kind.TIMESTAMP_BY_PARTITION,
        "startingOffsetsByTimestamp",
        0,
        timestamps,
        latestWhenNoMatch);
  }

  /**
   * Parses {@code earliest}, {@code latest} or per-partition JSON ({@code {"orders":{"0":23}}}).
   *
   * @throws IllegalArgumentException naming {@code startingOffsets} when the value is neither
   */
  public static StartingOffsets parse(String value) {
    String v = value.trim();
    if (v.equalsIgnoreCase("earliest")) {
      return earliest();
    }
    if (v.equalsIgnoreCase("latest")) {
      return latest();
    }
    Map<TopicPartition, Long> offsets = parsePartitionJson("startingOffsets", v);
    for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
      if (e.getValue() < EARLIEST) {
        throw new IllegalArgumentException(
            "Kafka source option startingOffsets: offset "
                + e.getValue()
                + " for "
                + e.getKey()
                + " is invalid; use an offset >= 0, -2 (earliest) or -1 (latest)");
      }
    }
    return specific(offsets);
  }

  /** Parses {@code {"topic":{"0":value,"1":value}}} into a partition map. */
  static Map<TopicPartition, Long> parsePartitionJson(String option, String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (Exception e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(
          "Kafka source option "
              + option
              + " must be "
              + ("startingOffsets".equals(option) ? "'earliest', 'latest' or " : "")
              + "JSON like {\"topic\":{\"0\":23,\"1\":-2}}, was: "
              + json);
    }
    Map<TopicPartition, Long> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> topics = root.fields(); topics.hasNext(); ) {
      Map.Entry<String, JsonNode> topic = topics.next();
      if (!topic.getValue().isObject()) {
        throw new IllegalArgumentException(
            "Kafka source option "
                + option
                + ": topic "
                + topic.getKey()
                + " must map to an object of partition -> value");
      }
      for (Iterator<Map.Entry<String, JsonNode>> parts = topic.getValue().fields();
          parts.hasNext(); ) {
        Map.Entry<String, JsonNode> part = parts.next();
        int partition;
        try {
          partition = Integer.parseInt(part.getKey());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "Kafka source option "
                  + option
                  + ": partition '"
                  + part.getKey()
                  + "' of topic "
                  + topic.getKey()
                  + " is not a number");
        }
        if (!part.getValue().canConvertToLong()) {
          throw new IllegalArgumentException(
              "Kafka source option "
                  + option
                  + ": value for "
                  + topic.getKey()
                  + "-"
                  + partition
                  + " is not a number: "
                  + part.getValue());
        }
        out.put(new TopicPartition(topic.getKey(), partition), part.getValue().asLong());
      }
    }
    return out;
  }

  /**
   * Concrete starting offsets for {@code partitions}.
   *
   * @throws LakestreamException ({@code KAFKA_INVALID_STARTING_OFFSETS}) naming the option when
   *     JSON misses partitions, or a timestamp matches no record and the strategy is {@code error}
   */
  public Map<TopicPartition, Long> resolve(
      Collection<TopicPartition> partitions, OffsetLookup lookup) {
    Map<TopicPartition, Long> out = new LinkedHashMap<>();
    if (partitions.isEmpty()) {
      return out;
    }
    switch (kind) {
      case EARLIEST:
        return new LinkedHashMap<>(lookup.earliest(partitions));
      case LATEST:
        return new LinkedHashMap<>(lookup.latest(partitions));
      case SPECIFIC:
        {
          Map<TopicPartition, Long> given = requireAll(partitions);
          Map<TopicPartition, Long> earliest = lookup.earliest(partitions);
          Map<TopicPartition, Long> latest = lookup.latest(partitions);
          for (TopicPartition tp : partitions) {
            long v = given.get(tp);
            out.put(tp, v == EARLIEST ? earliest.get(tp) : v == LATEST ? latest.get(tp) : v);
          }
          return out;
        }
      case TIMESTAMP:
      case TIMESTAMP_BY_PARTITION:
        {
          Map<TopicPartition, Long> stamps = new LinkedHashMap<>();
          if (kind == Kind.TIMESTAMP) {
            partitions.forEach(tp -> stamps.put(tp, timestamp));
          } else {
            stamps.putAll(requireAll(partitions));
          }
          Map<TopicPartition, Long> found = lookup.forTimestamps(stamps);
          Map<TopicPartition, Long> latest = null;
          for (TopicPartition tp : partitions) {
            Long offset = found.get(tp);
            if (offset == null) {
              if (!latestWhenNoTimestampMatch) {
                throw new LakestreamException(
                    KafkaErrorClass.KAFKA_INVALID_STARTING_OFFSETS,
                    "Kafka source option "
                        + option
                        + ": partition "
                        + tp
                        + " has no record with timestamp >= "
                        + stamps.get(tp)
                        + "; use an earlier timestamp or set "
                        + "startingOffsetsByTimestampStrategy=latest to start such partitions at latest");
              }
              latest = latest == null ? lookup.latest(partitions) : latest;
              offset = latest.get(tp);
            }
            out.put(tp, offset);
          }
          return out;
        }
      default:
        throw new IllegalStateException(kind.name());
    }
  }

  private Map<TopicPartition, Long> requireAll(Collection<TopicPartition> partitions) {
    Map<TopicPartition, Long> given = new LinkedHashMap<>();
    perPartition.forEach((k, v) -> given.put(fromKey(k), v));
    TreeSet<String> missing = new TreeSet<>();
    for (TopicPartition tp : partitions) {
      if (!given.containsKey(tp)) {
        missing.add(tp.toString());
      }
    }
    if (!missing.isEmpty()) {
      throw new LakestreamException(
          KafkaErrorClass.KAFKA_INVALID_STARTING_OFFSETS,
          "Kafka source option "
              + option
              + " must name every partition of the query; missing: "
              + String.join(", ", missing)
              + " (given: "
              + given.keySet()
              + ")");
    }
    TreeSet<String> unknown = new TreeSet<>();
    for (TopicPartition tp : given.keySet()) {
      if (!partitions.contains(tp)) {
        unknown.add(tp.toString());
      }
    }
    if (!unknown.isEmpty()) {
      throw new LakestreamException(
          KafkaErrorClass.KAFKA_INVALID_STARTING_OFFSETS,
          "Kafka source option "
              + option
              + " names partitions the query does not read: "
              + String.join(", ", unknown)
              + " (the query reads "
              + List.copyOf(
                  new TreeSet<>(partitions.stream().map(TopicPartition::toString).toList()))
              + ")");
    }
    return given;
  }

  private static String key(TopicPartition tp) {
    return tp.topic() + "\u0000" + tp.partition();
  }

  private static TopicPartition fromKey(String key) {
    int i = key.lastIndexOf('\u0000');
    return new TopicPartition(key.substring(0, i), Integer.parseInt(key.substring(i + 1)));
  }

  /** For logs: which option applied and with what. */
  @Override
  public String toString() {
    switch (kind) {
      case EARLIEST:
        return "startingOffsets=earliest";
      case LATEST:
        return "startingOffsets=latest";
      case TIMESTAMP:
        return "startingTimestamp=" + timestamp;
      default:
        Map<String, Long> shown = new TreeMap<>();
        perPartition.forEach((k, v) -> shown.put(fromKey(k).toString(), v));
        return option + "=" + shown;
    }
  }
}
