package io.lakestream.connectors.kafka.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.KafkaDataLossException;
import io.lakestream.connectors.kafka.source.KafkaSourceConfig;
import io.lakestream.connectors.kafka.source.event.EpochGrant;
import io.lakestream.connectors.kafka.source.event.RunEnds;
import io.lakestream.connectors.kafka.source.event.RunEndsRequest;
import io.lakestream.connectors.kafka.source.event.SplitsRemoved;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the partitions to read, resolves {@code startingOffsets} for a new query (a restored query
 * keeps its checkpointed positions), assigns partitions to readers, and shapes epochs: when all
 * readers have reported their positions at a snapshot, it looks up the latest offsets and, under
 * {@code maxOffsetsPerTrigger}/{@code minOffsetsPerTrigger}, sends every reader an {@link
 * EpochGrant} for the next epoch. It also records each epoch's offsets and backlog metrics and, in
 * an availableNow run, captures the run's end offsets and signals when every partition reached
 * them.
 *
 * <p>Failures: a topic deleted while the query reads it fails the job with {@link
 * KafkaDataLossException} under {@code failOnDataLoss=true}; otherwise its partitions are dropped
 * with a warning.
 */
@Internal
public final class KafkaStreamEnumerator
    implements SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaStreamEnumerator.class);

  private final SplitEnumeratorContext<KafkaPartitionSplit> context;
  private final KafkaSourceConfig config;
  private final String sourceName;
  private final boolean newQuery;
  private final boolean availableNow;
  private final EpochPositions positions;
  private final EpochBudget budget;
  private final List<KafkaPartitionSplit> unassigned;
  private final Map<String, TopicPartition> known = new TreeMap<>();
  private final Set<String> removed = new HashSet<>();
  private final TreeMap<Long, Map<Integer, Map<String, Long>>> reports = new TreeMap<>();
  private final TreeMap<Long, Map<String, Long>> epochPositions = new TreeMap<>();
  private final Set<Integer> awaitingRunEnds = new HashSet<>();
  private Map<String, Long> latest = Map.of();
  private Map<String, Long> runEnds;
  private Admin admin;
  private AdminOffsetLookup lookup;

  public KafkaStreamEnumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context,
      KafkaSourceConfig config,
      String sourceName,
      KafkaEnumeratorState state,
      boolean newQuery,
      boolean availableNow,
      boolean ignoreRateLimits,
      EpochPositions positions) {
    this.context = context;
    this.config = config;
    this.sourceName = sourceName;
    this.newQuery = newQuery;
    this.availableNow = availableNow;
    this.positions = positions;
    this.budget =
        config.rateLimited() && !ignoreRateLimits
            ? new EpochBudget(
                config.maxOffsetsPerTrigger(),
                config.minOffsetsPerTrigger(),
                config.maxTriggerDelay().toMillis(),
                System.currentTimeMillis())
            : null;
    this.unassigned = new ArrayList<>(state.unassigned());
    for (String id : state.knownPartitions()) {
      int dash = id.lastIndexOf('-');
      known.put(
          id, new TopicPartition(id.substring(0, dash), Integer.parseInt(id.substring(dash + 1))));
    }
    Map<String, Long> seed = new TreeMap<>();
    unassigned.forEach(s -> seed.put(s.splitId(), s.nextOffset()));
    positions.seed(seed);
  }

  @Override
  public void start() {
    admin = Admin.create(config.clientProperties());
    lookup = new AdminOffsetLookup(admin, config.clientProperties());
    addPartitions(lookup.partitions(config.topics()), true);
    if (availableNow) {
      Map<String, Long> ends = new TreeMap<>();
      lookup
          .latest(known.values())
          .forEach((tp, end) -> ends.put(KafkaPartitionSplit.splitId(tp), end));
      runEnds = ends;
      LOG.info("Kafka source {}: availableNow run reads up to {}", sourceName, runEnds);
      for (int reader : awaitingRunEnds) {
        context.sendEventToSourceReader(reader, new RunEnds(runEnds));
      }
      awaitingRunEnds.clear();
      positions.signalIfAllCaughtUp(known.size());
    }
    long interval = config.partitionDiscoveryInterval().toMillis();
    context.callAsync(this::discover, this::onDiscovered, interval, interval);
  }

  private record Discovery(Set<TopicPartition> partitions, Set<String> topics) {}

  private Discovery discover() {
    return new Discovery(lookup.partitions(config.topics()), lookup.topics());
  }

  private void onDiscovered(Discovery found, Throwable error) {
    if (error != null) {
      LOG.warn("Kafka source {}: partition discovery failed; will retry", sourceName, error);
      return;
    }
    Set<String> gone = new TreeSet<>();
    for (Map.Entry<String, TopicPartition> e : known.entrySet()) {
      if (!found.topics().contains(e.getValue().topic()) && !removed.contains(e.getKey())) {
        gone.add(e.getKey());
      }
    }
    if (!gone.isEmpty()) {
      Map<String, Long> at = new TreeMap<>();
      gone.forEach(id -> at.put(id, lastPosition(id)));
      String what =
          "Kafka source "
              + sourceName
              + ": the topic of partitions "
              + gone
              + " was deleted while the query read it; records from the query's positions "
              + at
              + " (offset -1 = not reported yet) onwards that it had not read are lost";
      if (config.failOnDataLoss()) {
        throw new KafkaDataLossException(
            what + ". Set failOnDataLoss=false to drop such partitions with a warning and go on.");
      }
      LOG.warn("{}; failOnDataLoss=false: no longer reading them", what);
      removed.addAll(gone);
      unassigned.removeIf(s -> gone.contains(s.splitId()));
      for (int reader : context.registeredReaders().keySet()) {
        context.sendEventToSourceReader(reader, new SplitsRemoved(gone));
      }
      gone.forEach(id -> positions.onCaughtUp(id, known.size()));
    }
    if (!availableNow) {
      Set<TopicPartition> fresh = new HashSet<>(found.partitions());
      fresh.removeIf(tp -> removed.contains(KafkaPartitionSplit.splitId(tp)));
      addPartitions(fresh, false);
    }
  }

  private long lastPosition(String splitId) {
    Map.Entry<Long, Map<String, Long>> last = epochPositions.lastEntry();
    Long p = last == null ? null : last.getValue().get(splitId);
    return p == null ? -1 : p;
  }

  /**
   * Adds partitions not seen before; at the first discovery of a new query from startingOffsets.
   */
  private void addPartitions(Set<TopicPartition> found, boolean firstDiscovery) {
    List<TopicPartition> fresh = new ArrayList<>();
    for (TopicPartition tp : found) {
      if (!known.containsKey(KafkaPartitionSplit.splitId(tp))) {
        fresh.add(tp);
      }
    }
    if (firstDiscovery && !newQuery) {
      LOG.info(
          "Kafka source {}: resumed from its checkpoint; startingOffsets is ignored, the {} known"
              + " partitions continue from their checkpointed offsets",
          sourceName,
          known.size());
    }
    if (fresh.isEmpty()) {
      if (firstDiscovery && newQuery) {
        LOG.info(
            "Kafka source {}: new query, but {} has no partitions yet",
            sourceName,
            config.topics());
      }
      assignPending();
      return;
    }
    Map<TopicPartition, Long> offsets;
    if (firstDiscovery && newQuery) {
      offsets = config.startingOffsets().resolve(fresh, lookup);
      LOG.info(
          "Kafka source {}: new query, {} applied: starting at {}",
          sourceName,
          config.startingOffsets(),
          offsets);
    } else {
      offsets = lookup.earliest(fresh);
      LOG.info(
          "Kafka source {}: new partitions found, reading them from earliest: {}",
          sourceName,
          offsets);
    }
    for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
      KafkaPartitionSplit split = KafkaPartitionSplit.of(e.getKey(), e.getValue());
      known.put(split.splitId(), e.getKey());
      unassigned.add(split);
    }
    Map<String, Long> seed = new TreeMap<>();
    unassigned.forEach(s -> seed.put(s.splitId(), s.nextOffset()));
    positions.seed(seed);
    assignPending();
  }

  /** The reader for a partition, spread like Flink's Kafka source. */
  static int owner(TopicPartition tp, int parallelism) {
    int start = ((tp.topic().hashCode() * 31) & 0x7FFFFFFF) % parallelism;
    return (start + tp.partition()) % parallelism;
  }

  private void assignPending() {
    int parallelism = context.currentParallelism();
    List<KafkaPartitionSplit> still = new ArrayList<>();
    for (KafkaPartitionSplit split : unassigned) {
      int reader = owner(split.topicPartition(), parallelism);
      if (context.registeredReaders().containsKey(reader)) {
        context.assignSplit(split, reader);
      } else {
        still.add(split);
      }
    }
    unassigned.clear();
    unassigned.addAll(still);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<KafkaPartitionSplit> splits, int subtaskId) {
    for (KafkaPartitionSplit split : splits) {
      if (!removed.contains(split.splitId())) {
        unassigned.add(split);
      }
    }
    if (context.registeredReaders().containsKey(subtaskId)) {
      assignPending();
    }
  }

  @Override
  public void addReader(int subtaskId) {
    assignPending();
  }

  @Override
  public void handleSourceEvent(int subtaskId, SourceEvent event) {
    if (event instanceof PositionReport report) {
      positions.onReport(report);
      Map<Integer, Map<String, Long>> byReader =
          reports.computeIfAbsent(report.checkpointId(), id -> new HashMap<>());
      byReader.put(subtaskId, report.positions());
      if (byReader.size() >= context.registeredReaders().size()) {
        onEpochEnd(report.checkpointId());
      }
    } else if (event instanceof SplitCaughtUp caughtUp) {
      positions.onCaughtUp(caughtUp.splitId(), known.size());
    } else if (event instanceof RunEndsRequest) {
      if (runEnds != null) {
        context.sendEventToSourceReader(subtaskId, new RunEnds(runEnds));
      } else {
        awaitingRunEnds.add(subtaskId);
      }
    }
  }

  /** Every reader snapshotted for {@code checkpointId}: look up latest offsets, grant an epoch. */
  private void onEpochEnd(long checkpointId) {
    Map<String, Long> at = new TreeMap<>();
    for (Map<String, Long> r : reports.get(checkpointId).values()) {
      at.putAll(r);
    }
    unassigned.forEach(s -> at.putIfAbsent(s.splitId(), s.nextOffset()));
    reports.headMap(checkpointId, true).clear();
    epochPositions.put(checkpointId, at);
    List<TopicPartition> partitions = new ArrayList<>();
    at.keySet()
        .forEach(
            id -> {
              TopicPartition tp = known.get(id);
              if (tp != null && !removed.contains(id)) {
                partitions.add(tp);
              }
            });
    context.callAsync(
        () -> timed(() -> lookup.latest(partitions)),
        (timedFound, error) -> {
          if (error != null) {
            LOG.warn(
                "Kafka source {}: could not look up latest offsets; no new epoch granted yet",
                sourceName,
                error);
            return;
          }
          Map<String, Long> byId = new TreeMap<>();
          timedFound.value().forEach((tp, end) -> byId.put(KafkaPartitionSplit.splitId(tp), end));
          latest = byId;
          // These bound the epoch after this checkpoint.
          positions.onLatestLookedUp(checkpointId + 1, byId, timedFound.millis());
          if (budget != null) {
            grant(checkpointId, at, byId);
          }
        });
  }

  /** A value and how long computing it took. */
  private record Timed<T>(T value, long millis) {}

  private static <T> Timed<T> timed(java.util.concurrent.Callable<T> call) throws Exception {
    long started = System.nanoTime();
    T value = call.call();
    return new Timed<>(value, (System.nanoTime() - started) / 1_000_000);
  }

  private void grant(long checkpointId, Map<String, Long> at, Map<String, Long> latestById) {
    Map<String, Long> available = new TreeMap<>();
    for (Map.Entry<String, Long> e : latestById.entrySet()) {
      long end = e.getValue();
      if (runEnds != null) {
        end = Math.min(end, runEnds.getOrDefault(e.getKey(), 0L));
      }
      available.put(e.getKey(), end);
    }
    Map<String, Long> from = new LinkedHashMap<>(at);
    from.keySet().removeIf(removed::contains);
    Map<String, Long> ends =
        budget.grant(from, available, System.currentTimeMillis(), availableNow);
    LOG.debug(
        "Kafka source {}: epoch after checkpoint {} may read up to {}",
        sourceName,
        checkpointId,
        ends);
    EpochGrant grant = new EpochGrant(checkpointId, ends);
    for (int reader : context.registeredReaders().keySet()) {
      context.sendEventToSourceReader(reader, grant);
    }
  }

  @Override
  public KafkaEnumeratorState snapshotState(long checkpointId) {
    return new KafkaEnumeratorState(unassigned, known.keySet());
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Map<String, Long> at = epochPositions.get(checkpointId);
    Map<String, Object> metrics = at == null ? Map.of() : backlogMetrics(at, latest);
    epochPositions.headMap(checkpointId, false).clear();
    positions.onCheckpointComplete(checkpointId, runEnds == null ? Map.of() : runEnds, metrics);
  }

  /** Spark's avg/max/minOffsetsBehindLatest over partitions with a known latest offset. */
  static Map<String, Object> backlogMetrics(Map<String, Long> at, Map<String, Long> latest) {
    long max = 0;
    long min = Long.MAX_VALUE;
    long sum = 0;
    int n = 0;
    for (Map.Entry<String, Long> e : at.entrySet()) {
      Long end = latest.get(e.getKey());
      if (end == null) {
        continue;
      }
      long behind = Math.max(0, end - e.getValue());
      max = Math.max(max, behind);
      min = Math.min(min, behind);
      sum += behind;
      n++;
    }
    if (n == 0) {
      return Map.of();
    }
    Map<String, Object> m = new TreeMap<>();
    m.put("avgOffsetsBehindLatest", (double) sum / n);
    m.put("maxOffsetsBehindLatest", max);
    m.put("minOffsetsBehindLatest", min);
    return m;
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close(java.time.Duration.ofSeconds(5));
    }
  }
}
