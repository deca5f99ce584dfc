package io.lakestream.connectors.kafka.source.enumerator;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaErrorClass;
import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import io.lakestream.connectors.kafka.source.OffsetLookup;
import io.lakestream.connectors.kafka.source.TopicSelection;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Partition discovery and offset look-ups through a Kafka {@link Admin} client. Thread-safe (the
 * admin client is). Failures are {@link LakestreamException}s ({@code KAFKA_UNREACHABLE}, or the
 * authentication failure) naming what was asked.
 */
final class AdminOffsetLookup implements OffsetLookup {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Admin admin;
  private final Properties clientProperties;

  AdminOffsetLookup(Admin admin, Properties clientProperties) {
    this.clientProperties = clientProperties;
    this.admin = admin;
  }

  /** All topic names (internal ones excluded). */
  Set<String> topics() {
    return new TreeSet<>(await("list topics", admin.listTopics().names()));
  }

  /** The partitions the selection reads now; subscribed topics that do not exist are skipped. */
  Set<TopicPartition> partitions(TopicSelection selection) {
    Set<TopicPartition> out =
        new TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
    switch (selection.kind()) {
      case ASSIGN:
        out.addAll(selection.assignedPartitions());
        return out;
      case SUBSCRIBE:
        describe(selection.topics(), out);
        return out;
      default:
        describe(topics().stream().filter(selection::matches).toList(), out);
        return out;
    }
  }

  private void describe(Collection<String> topics, Set<TopicPartition> out) {
    if (topics.isEmpty()) {
      return;
    }
    Map<String, KafkaFuture<TopicDescription>> futures =
        admin.describeTopics(topics).topicNameValues();
    for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
      try {
        TopicDescription d = e.getValue().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        for (TopicPartitionInfo p : d.partitions()) {
          out.add(new TopicPartition(d.name(), p.partition()));
        }
      } catch (ExecutionException ex) {
        if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw explained(ex.getCause())
              .orElseGet(
                  () ->
                      new LakestreamException(
                          KafkaErrorClass.KAFKA_UNREACHABLE,
                          "Kafka source could not describe topic "
                              + e.getKey()
                              + ": "
                              + ex.getCause(),
                          ex));
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while describing topic " + e.getKey(), ex);
      } catch (TimeoutException ex) {
        throw new LakestreamException(
            KafkaErrorClass.KAFKA_UNREACHABLE,
            "Kafka source could not describe topic " + e.getKey() + " within " + TIMEOUT,
            ex);
      }
    }
  }

  @Override
  public Map<TopicPartition, Long> earliest(Collection<TopicPartition> partitions) {
    return list(partitions, OffsetSpec.earliest(), "earliest");
  }

  @Override
  public Map<TopicPartition, Long> latest(Collection<TopicPartition> partitions) {
    return list(partitions, OffsetSpec.latest(), "latest");
  }

  @Override
  public Map<TopicPartition, Long> forTimestamps(Map<TopicPartition, Long> timestamps) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    timestamps.forEach((tp, ts) -> request.put(tp, OffsetSpec.forTimestamp(ts)));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
        await("look up offsets by timestamp", admin.listOffsets(request).all());
    Map<TopicPartition, Long> out = new LinkedHashMap<>();
    for (TopicPartition tp : timestamps.keySet()) {
      ListOffsetsResult.ListOffsetsResultInfo info = result.get(tp);
      out.put(tp, info == null || info.offset() < 0 ? null : info.offset());
    }
    return out;
  }

  private Map<TopicPartition, Long> list(
      Collection<TopicPartition> partitions, OffsetSpec spec, String what) {
    Map<TopicPartition, Long> out = new LinkedHashMap<>();
    if (partitions.isEmpty()) {
      return out;
    }
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(tp -> request.put(tp, spec));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
        await("look up " + what + " offsets of " + partitions, admin.listOffsets(request).all());
    for (TopicPartition tp : partitions) {
      out.put(tp, result.get(tp).offset());
    }
    return out;
  }

  private <T> T await(String what, KafkaFuture<T> future) {
    try {
      return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    } catch (ExecutionException e) {
      throw explained(e.getCause())
          .orElseGet(
              () ->
                  new LakestreamException(
                      KafkaErrorClass.KAFKA_UNREACHABLE,
                      "Kafka source could not " + what + ": " + e.getCause(),
                      e.getCause()));
    } catch (TimeoutException e) {
      throw new LakestreamException(
          KafkaErrorClass.KAFKA_UNREACHABLE,
          "Kafka source could not "
              + what
              + " within "
              + TIMEOUT
              + " (is kafka.bootstrap.servers right?)",
          e);
    }
  }

  /** A clear error for an authentication failure (never with the password). */
  private java.util.Optional<RuntimeException> explained(Throwable failure) {
    return KafkaClientSecurity.authenticationFailure(clientProperties, failure)
        .map(RuntimeException.class::cast);
  }
}
