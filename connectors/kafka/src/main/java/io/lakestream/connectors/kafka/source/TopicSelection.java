package io.lakestream.connectors.kafka.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.TopicPartition;

/**
 * What the source reads: Spark's {@code subscribe} (topic list), {@code subscribePattern} (regex
 * over topic names) or {@code assign} (fixed partitions, JSON {@code {"orders":[0,1]}}). Exactly
 * one must be given.
 */
@Internal
public final class TopicSelection implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How topics are chosen. */
  public enum Kind {
    SUBSCRIBE,
    SUBSCRIBE_PATTERN,
    ASSIGN
  }

  private final Kind kind;
  private final List<String> topics;
  private final String pattern;
  private final List<String> assigned; // "topic\u0000partition"

  private TopicSelection(Kind kind, List<String> topics, String pattern, List<String> assigned) {
    this.kind = kind;
    this.topics = topics;
    this.pattern = pattern;
    this.assigned = assigned;
  }

  /** Comma-separated topic names. */
  public static TopicSelection subscribe(String topicList) {
    List<String> topics = new ArrayList<>();
    for (String t : topicList.split(",")) {
      if (!t.isBlank()) {
        topics.add(t.trim());
      }
    }
    if (topics.isEmpty()) {
      throw new IllegalArgumentException(
          "Kafka source option subscribe must list at least one topic (comma-separated), was '"
              + topicList
              + "'");
    }
    return new TopicSelection(Kind.SUBSCRIBE, topics, null, List.of());
  }

  /** A Java regular expression matched against whole topic names. */
  public static TopicSelection subscribePattern(String regex) {
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "Kafka source option subscribePattern is not a valid regular expression: "
              + e.getDescription()
              + " in '"
              + regex
              + "'");
    }
    return new TopicSelection(Kind.SUBSCRIBE_PATTERN, List.of(), regex, List.of());
  }

  /** JSON {@code {"topicA":[0,1],"topicB":[2]}}. */
  public static TopicSelection assign(String json) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (Exception e) {
      root = null;
    }
    String expected =
        "Kafka source option assign must be JSON like {\"topicA\":[0,1],\"topicB\":[2]}, was: ";
    if (root == null || !root.isObject() || root.isEmpty()) {
      throw new IllegalArgumentException(expected + json);
    }
    List<String> assigned = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> topic = it.next();
      if (!topic.getValue().isArray()) {
        throw new IllegalArgumentException(expected + json);
      }
      for (JsonNode p : topic.getValue()) {
        if (!p.canConvertToInt() || p.asInt() < 0) {
          throw new IllegalArgumentException(expected + json);
        }
        assigned.add(topic.getKey() + "\u0000" + p.asInt());
      }
    }
    return new TopicSelection(Kind.ASSIGN, List.of(), null, assigned);
  }

  public Kind kind() {
    return kind;
  }

  /** The subscribed topic names ({@link Kind#SUBSCRIBE}). */
  public List<String> topics() {
    return topics;
  }

  /** Whether {@code topic} matches the pattern ({@link Kind#SUBSCRIBE_PATTERN}). */
  public boolean matches(String topic) {
    return Pattern.compile(pattern).matcher(topic).matches();
  }

  /** The assigned partitions ({@link Kind#ASSIGN}). */
  public List<TopicPartition> assignedPartitions() {
    List<TopicPartition> out = new ArrayList<>();
    for (String a : assigned) {
      int i = a.lastIndexOf('\u0000');
      out.add(new TopicPartition(a.substring(0, i), Integer.parseInt(a.substring(i + 1))));
    }
    return out;
  }

  /** Topics named by {@code subscribe} or {@code assign}. */
  public TreeSet<String> namedTopics() {
    TreeSet<String> out = new TreeSet<>(topics);
    assignedPartitions().forEach(tp -> out.add(tp.topic()));
    return out;
  }

  @Override
  public String toString() {
    switch (kind) {
      case SUBSCRIBE:
        return "subscribe=" + String.join(",", topics);
      case SUBSCRIBE_PATTERN:
        return "subscribePattern=" + pattern;
      default:
        return "assign=" + assignedPartitions();
    }
  }
}
