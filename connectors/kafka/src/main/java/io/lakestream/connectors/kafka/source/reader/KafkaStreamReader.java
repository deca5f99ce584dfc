package io.lakestream.connectors.kafka.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kafka.KafkaDataLossException;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import io.lakestream.connectors.kafka.source.KafkaSourceConfig;
import io.lakestream.connectors.kafka.source.event.EpochGrant;
import io.lakestream.connectors.kafka.source.event.RunEnds;
import io.lakestream.connectors.kafka.source.event.RunEndsRequest;
import io.lakestream.connectors.kafka.source.event.SplitsRemoved;
import io.lakestream.connectors.kafka.source.split.KafkaPartitionSplit;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads its partitions with one {@link KafkaConsumer} (assign mode, {@code auto.offset.reset=none})
 * on the task thread: each call emits one buffered record or, when none can be emitted, polls the
 * consumer waiting at most 5 ms (so checkpoints are not held up).
 *
 * <p>Guarantees: the checkpointed position of a partition is the offset after the last record
 * emitted, so a restore neither skips nor repeats records. Under rate limits it emits, in the epoch
 * after its snapshot for checkpoint N, only records below the ends of the {@link EpochGrant} for N
 * (nothing until it arrives); in an availableNow run nothing at or past the run's end, and it sends
 * {@link SplitCaughtUp} when a partition gets there. Offsets of a completed checkpoint are
 * committed to the consumer group (for monitoring; positions live in Flink state). Lost offsets
 * fail with {@link KafkaDataLossException} or, with {@code failOnDataLoss=false}, are logged and
 * skipped.
 */
@Internal
public final class KafkaStreamReader implements SourceReader<KafkaRecord, KafkaPartitionSplit> {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaStreamReader.class);
  private static final long IDLE_WAIT_MILLIS = 10;
  private static final Duration POLL_WAIT = Duration.ofMillis(5);
  private static final int BUFFER_PER_PARTITION = 1000;

  private final SourceReaderContext context;
  private final KafkaSourceConfig config;
  private final String sourceName;
  private final String groupId;
  private final boolean rateLimited;
  private final boolean availableNow;

  private final Map<TopicPartition, Partition> partitions = new LinkedHashMap<>();
  private final Set<TopicPartition> paused = new HashSet<>();
  private final TreeMap<Long, Map<TopicPartition, Long>> toCommit = new TreeMap<>();
  private List<Partition> order = List.of();
  private KafkaConsumer<byte[], byte[]> consumer;
  private Map<String, Long> runEnds;
  private long lastSnapshot = Long.MIN_VALUE;
  private int cursor;
  private CompletableFuture<Void> available = CompletableFuture.completedFuture(null);

  /** One assigned partition: where it is and what was fetched but not yet emitted. */
  private static final class Partition {
    final TopicPartition tp;
    final String id;
    final ArrayDeque<ConsumerRecord<byte[], byte[]>> buffer = new ArrayDeque<>();
    long position;
    long grantEnd;
    long runEnd = Long.MAX_VALUE;
    boolean caughtUpSent;

    Partition(KafkaPartitionSplit split) {
      this.tp = split.topicPartition();
      this.id = split.splitId();
      this.position = split.nextOffset();
      this.grantEnd = split.nextOffset();
    }
  }

  public KafkaStreamReader(
      SourceReaderContext context,
      KafkaSourceConfig config,
      String sourceName,
      String groupId,
      boolean availableNow,
      boolean ignoreRateLimits) {
    this.context = context;
    this.config = config;
    this.sourceName = sourceName;
    this.groupId = groupId;
    this.rateLimited = config.rateLimited() && !ignoreRateLimits;
    this.availableNow = availableNow;
  }

  @Override
  public void start() {
    if (availableNow) {
      context.sendSourceEventToCoordinator(new RunEndsRequest());
    }
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      Properties p = config.clientProperties();
      p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
      p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      // A reader must not re-create a topic that was deleted under it (failOnDataLoss decides).
      p.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
      // Records are emitted from the reader's own buffer; larger polls mean fewer client calls.
      p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
      p.putIfAbsent(
          ConsumerConfig.CLIENT_ID_CONFIG, sourceName + "-" + context.getIndexOfSubtask());
      consumer = new KafkaConsumer<>(p);
    }
    return consumer;
  }

  @Override
  public InputStatus pollNext(ReaderOutput<KafkaRecord> output) {
    if (partitions.isEmpty() || (availableNow && runEnds == null)) {
      return idle();
    }
    if (emitOne(output)) {
      return InputStatus.MORE_AVAILABLE;
    }
    ConsumerRecords<byte[], byte[]> fetched;
    try {
      // Nothing to emit: wait briefly for data if some partition may fetch (a checkpoint barrier
      // is delayed by at most POLL_WAIT), else just serve the client's callbacks.
      fetched = consumer().poll(updatePauses() ? POLL_WAIT : Duration.ZERO);
    } catch (OffsetOutOfRangeException e) {
      onOffsetsLost(e.offsetOutOfRangePartitions());
      return InputStatus.MORE_AVAILABLE;
    } catch (AuthenticationException e) {
      throw KafkaClientSecurity.authenticationFailure(config.clientProperties(), e)
          .map(RuntimeException.class::cast)
          .orElse(e);
    }
    for (TopicPartition tp : fetched.partitions()) {
      Partition p = partitions.get(tp);
      if (p != null) {
        p.buffer.addAll(fetched.records(tp));
      }
    }
    if (!fetched.isEmpty()) {
      return InputStatus.MORE_AVAILABLE;
    }
    for (Partition p : order) {
      if (p.buffer.isEmpty()) {
        // Nothing buffered: every record below the fetch position was emitted, so offsets up to it
        // hold no records (transaction markers, compaction) and the position may skip them.
        p.position = Math.max(p.position, consumer.position(p.tp));
      }
      if (availableNow && p.position >= p.runEnd && !p.caughtUpSent) {
        p.caughtUpSent = true;
        context.sendSourceEventToCoordinator(new SplitCaughtUp(p.id));
      }
    }
    return waitFor(IDLE_WAIT_MILLIS);
  }

  /** Emits one buffered record within the limits, partitions taking turns. */
  private boolean emitOne(ReaderOutput<KafkaRecord> output) {
    for (int tries = 0; tries < order.size(); tries++) {
      Partition p = order.get(cursor);
      cursor = (cursor + 1) % order.size();
      long limit = limit(p);
      while (!p.buffer.isEmpty()) {
        ConsumerRecord<byte[], byte[]> r = p.buffer.peekFirst();
        if (r.offset() < p.position) {
          p.buffer.pollFirst();
          continue;
        }
        if (r.offset() >= limit) {
          break;
        }
        p.buffer.pollFirst();
        output.collect(toRecord(r), r.timestamp());
        p.position = r.offset() + 1;
        return true;
      }
    }
    return false;
  }

  private long limit(Partition p) {
    return Math.min(rateLimited ? p.grantEnd : Long.MAX_VALUE, p.runEnd);
  }

  /** Pauses partitions that must not fetch now; returns whether any partition may fetch. */
  private boolean updatePauses() {
    List<TopicPartition> pause = new ArrayList<>();
    List<TopicPartition> resume = new ArrayList<>();
    for (Partition p : order) {
      boolean wanted = p.buffer.size() < BUFFER_PER_PARTITION && p.position < limit(p);
      if (wanted && paused.remove(p.tp)) {
        resume.add(p.tp);
      } else if (!wanted && paused.add(p.tp)) {
        pause.add(p.tp);
      }
    }
    if (!pause.isEmpty()) {
      consumer().pause(pause);
    }
    if (!resume.isEmpty()) {
      consumer().resume(resume);
    }
    return paused.size() < order.size();
  }

  private KafkaRecord toRecord(ConsumerRecord<byte[], byte[]> r) {
    String[] keys = new String[0];
    byte[][] values = new byte[0][];
    if (config.includeHeaders()) {
      Header[] headers = r.headers().toArray();
      keys = new String[headers.length];
      values = new byte[headers.length][];
      for (int i = 0; i < headers.length; i++) {
        keys[i] = headers[i].key();
        values[i] = headers[i].value();
      }
    }
    return new KafkaRecord(
        r.key(),
        r.value(),
        r.topic(),
        r.partition(),
        r.offset(),
        r.timestamp(),
        r.timestampType().id,
        keys,
        values);
  }

  /** Offsets below the log start (retention, deleteRecords) or past the end (topic recreated). */
  private void onOffsetsLost(Map<TopicPartition, Long> fetchOffsets) {
    Map<TopicPartition, Long> earliest = consumer.beginningOffsets(fetchOffsets.keySet());
    Map<TopicPartition, Long> latest = consumer.endOffsets(fetchOffsets.keySet());
    for (Map.Entry<TopicPartition, Long> e : fetchOffsets.entrySet()) {
      TopicPartition tp = e.getKey();
      long from = e.getValue();
      long first = earliest.get(tp);
      long end = latest.get(tp);
      String what =
          from < first
              ? "Kafka source "
                  + sourceName
                  + " lost data: partition "
                  + tp
                  + " offsets "
                  + from
                  + " to "
                  + (first - 1)
                  + " ("
                  + (first - from)
                  + " records) were deleted (retention or deleteRecords) before the query read"
                  + " them; the earliest available offset is "
                  + first
              : "Kafka source "
                  + sourceName
                  + " lost data: partition "
                  + tp
                  + " position "
                  + from
                  + " is past its latest offset "
                  + end
                  + " (the topic was deleted and recreated, or the broker lost records); records"
                  + " from offset "
                  + end
                  + " to "
                  + (from - 1)
                  + " are unknown";
      if (config.failOnDataLoss()) {
        throw new KafkaDataLossException(
            what
                + ". Set failOnDataLoss=false to log this and continue from the earliest available"
                + " offset.");
      }
      LOG.warn("{}; failOnDataLoss=false: continuing from offset {}", what, first);
      consumer.seek(tp, first);
      Partition p = partitions.get(tp);
      if (p != null && (p.buffer.isEmpty() || from > end)) {
        p.buffer.clear();
        p.position = first;
      }
    }
  }

  private InputStatus idle() {
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return InputStatus.NOTHING_AVAILABLE;
  }

  private InputStatus waitFor(long millis) {
    CompletableFuture<Void> later = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS)
        .execute(() -> later.complete(null));
    available = later;
    return InputStatus.NOTHING_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
    List<KafkaPartitionSplit> state = new ArrayList<>();
    Map<String, Long> report = new HashMap<>();
    Map<TopicPartition, Long> commit = new HashMap<>();
    for (Partition p : order) {
      state.add(KafkaPartitionSplit.of(p.tp, p.position));
      report.put(p.id, p.position);
      commit.put(p.tp, p.position);
      p.grantEnd = p.position; // nothing more until the grant for this snapshot arrives
    }
    context.sendSourceEventToCoordinator(new PositionReport(checkpointId, report));
    toCommit.put(checkpointId, commit);
    lastSnapshot = checkpointId;
    return state;
  }

  /** Commits the newest completed checkpoint's positions to the consumer group. */
  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Map.Entry<Long, Map<TopicPartition, Long>> done = toCommit.floorEntry(checkpointId);
    if (done == null) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    done.getValue().forEach((tp, offset) -> offsets.put(tp, new OffsetAndMetadata(offset)));
    toCommit.headMap(checkpointId, true).clear();
    if (offsets.isEmpty()) {
      return;
    }
    consumer()
        .commitAsync(
            offsets,
            (committed, error) -> {
              if (error != null) {
                LOG.warn(
                    "Kafka source {}: could not commit offsets of checkpoint {} to group {}"
                        + " (monitoring only; positions are in the checkpoint): {}",
                    sourceName,
                    checkpointId,
                    groupId,
                    error.toString());
              }
            });
  }

  @Override
  public void handleSourceEvents(SourceEvent event) {
    if (event instanceof EpochGrant grant) {
      if (grant.afterCheckpoint() == lastSnapshot) {
        for (Partition p : order) {
          Long end = grant.endOffsets().get(p.id);
          if (end != null) {
            p.grantEnd = Math.max(p.grantEnd, end);
          }
        }
      }
    } else if (event instanceof RunEnds ends) {
      runEnds = ends.endOffsets();
      order.forEach(p -> p.runEnd = runEnds.getOrDefault(p.id, p.position));
    } else if (event instanceof SplitsRemoved gone) {
      List<TopicPartition> keep = new ArrayList<>();
      partitions.values().removeIf(p -> gone.splitIds().contains(p.id));
      keep.addAll(partitions.keySet());
      paused.retainAll(keep);
      reorder();
      consumer().assign(keep);
    }
    available.complete(null);
  }

  @Override
  public void addSplits(List<KafkaPartitionSplit> splits) {
    for (KafkaPartitionSplit split : splits) {
      Partition p = new Partition(split);
      if (runEnds != null) {
        p.runEnd = runEnds.getOrDefault(p.id, p.position);
      }
      partitions.put(p.tp, p);
    }
    reorder();
    consumer().assign(new ArrayList<>(partitions.keySet()));
    for (KafkaPartitionSplit split : splits) {
      consumer.seek(split.topicPartition(), split.nextOffset());
    }
    available.complete(null);
  }

  private void reorder() {
    order = new ArrayList<>(partitions.values());
    cursor = 0;
  }

  @Override
  public void notifyNoMoreSplits() {}

  @Override
  public void close() {
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
    }
  }
}
