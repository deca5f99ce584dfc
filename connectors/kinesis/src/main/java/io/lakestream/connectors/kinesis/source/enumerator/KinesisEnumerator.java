package io.lakestream.connectors.kinesis.source.enumerator;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kinesis.KinesisErrorClass;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.source.fanout.FanOutConsumer;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ListShardsRequest;
import software.amazon.awssdk.services.kinesis.model.ListShardsResponse;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * Lists the stream's shards every {@code shardFetchInterval} and hands each new shard to the reader
 * {@code hash(shardId) mod parallelism}, but a shard with parents (from a split or merge) only once
 * every parent it knows of was read to its end ({@link ShardFinished}), so records of one partition
 * key come in order across a reshard. Parents it never saw (expired before the query started) do
 * not hold a child back.
 *
 * <p>The first listing of a new query starts each shard at option initialPosition (latest becomes
 * AT_TIMESTAMP of the enumerator's start, so a restore does not skip what arrived meanwhile; closed
 * shards are then skipped); shards found later are read from their start. In an availableNow run
 * the runner is signalled once every shard that can be read is finished or caught up with the run's
 * start ({@link SplitCaughtUp}). A listing that fails before the first success fails the job with
 * {@code KINESIS_SOURCE_STREAM_UNAVAILABLE}; later failures are logged and retried.
 *
 * <p>consumerMode efo: registers the consumer at start (failing the job with {@code
 * KINESIS_SOURCE_CONSUMER_FAILED}) and, with requireConsumerDeregistration, deregisters it on close
 * (the query stops, or a global restart, after which it registers it again).
 */
@Internal
public final class KinesisEnumerator
    implements SplitEnumerator<KinesisShardSplit, KinesisEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(KinesisEnumerator.class);

  private final SplitEnumeratorContext<KinesisShardSplit> context;
  private final KinesisSourceConfig config;
  private final EpochPositions positions;
  private final boolean availableNow;
  private final long startMillis = System.currentTimeMillis();
  private final Set<String> assigned;
  private final Set<String> finished;
  private final Map<String, KinesisShardSplit> pending = new LinkedHashMap<>();
  private final Set<String> caughtUp = new HashSet<>();
  private boolean firstListing;
  private boolean listed;
  private KinesisClient client;

  public KinesisEnumerator(
      SplitEnumeratorContext<KinesisShardSplit> context,
      KinesisSourceConfig config,
      KinesisEnumeratorState state,
      EpochPositions positions,
      boolean availableNow) {
    this.context = context;
    this.config = config;
    this.positions = positions;
    this.availableNow = availableNow;
    this.assigned = new TreeSet<>(state.assigned());
    this.finished = new TreeSet<>(state.finished());
    state.pending().forEach(split -> pending.put(split.shardId(), split));
    this.firstListing = assigned.isEmpty() && finished.isEmpty() && pending.isEmpty();
  }

  @Override
  public void start() {
    client = config.client();
    if (config.fanOut() != null) { // registers the consumer early: its errors fail the job at once
      context.callAsync(
          () -> FanOutConsumer.activeArn(config, client),
          (arn, error) -> {
            if (error instanceof RuntimeException e) {
              throw e;
            } else if (error != null) {
              throw new IllegalStateException(error);
            }
          });
    }
    context.callAsync(this::listShards, this::onShards, 0, config.shardFetchIntervalMillis());
  }

  private List<Shard> listShards() {
    List<Shard> shards = new ArrayList<>();
    ListShardsRequest request = ListShardsRequest.builder().streamName(config.streamName()).build();
    while (true) {
      ListShardsResponse response = client.listShards(request);
      shards.addAll(response.shards());
      if (response.nextToken() == null) {
        return shards;
      }
      request = ListShardsRequest.builder().nextToken(response.nextToken()).build();
    }
  }

  private void onShards(List<Shard> shards, Throwable error) {
    if (error != null) {
      if (!listed) {
        throw new LakestreamException(
            KinesisErrorClass.KINESIS_SOURCE_STREAM_UNAVAILABLE,
            "Cannot list the shards of "
                + config.describe()
                + ": "
                + (error instanceof SdkException ? error.getMessage() : error.toString())
                + ". Check options streamName, region and endpoint, and that the credentials"
                + " (awsAccessKey/awsSecretKey or the default chain) may call ListShards",
            error);
      }
      LOG.warn("Could not list the shards of {}; retrying", config.describe(), error);
      return;
    }
    for (Shard shard : shards) {
      addIfNew(shard);
    }
    firstListing = false;
    listed = true;
    assignPending();
    signalIfCaughtUp();
  }

  private void addIfNew(Shard shard) {
    String id = shard.shardId();
    if (assigned.contains(id) || finished.contains(id) || pending.containsKey(id)) {
      return;
    }
    List<String> parents = new ArrayList<>();
    if (shard.parentShardId() != null) {
      parents.add(shard.parentShardId());
    }
    if (shard.adjacentParentShardId() != null) {
      parents.add(shard.adjacentParentShardId());
    }
    boolean closed = shard.sequenceNumberRange().endingSequenceNumber() != null;
    long start = -1; // shards found after the first listing: from their start
    if (firstListing) {
      switch (config.initialPosition()) {
        case "latest" -> {
          if (closed) {
            finished.add(id); // nothing after "now" in a closed shard
            return;
          }
          start = startMillis;
        }
        case "at_timestamp" -> start = config.initialTimestampMillis();
        default -> start = -1;
      }
    }
    LOG.info("Found shard {} (parents {}) of {}", id, parents, config.describe());
    pending.put(id, KinesisShardSplit.fresh(id, parents, start));
  }

  private boolean parentsDone(KinesisShardSplit split) {
    return split.parents().stream().noneMatch(p -> assigned.contains(p) || pending.containsKey(p));
  }

  private void assignPending() {
    int parallelism = context.currentParallelism();
    for (KinesisShardSplit split : List.copyOf(pending.values())) {
      int reader = Math.floorMod(split.shardId().hashCode(), parallelism);
      if (parentsDone(split) && context.registeredReaders().containsKey(reader)) {
        pending.remove(split.shardId());
        assigned.add(split.shardId());
        context.assignSplit(split, reader);
      }
    }
  }

  private void signalIfCaughtUp() {
    if (!availableNow || !listed) {
      return;
    }
    for (String id : assigned) {
      if (!caughtUp.contains(id)) {
        return;
      }
    }
    for (KinesisShardSplit split : pending.values()) {
      if (parentsDone(split)) {
        return; // readable but not handed out yet
      }
    }
    positions.signalIfAllCaughtUp(0);
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<KinesisShardSplit> splits, int subtaskId) {
    for (KinesisShardSplit split : splits) {
      assigned.remove(split.shardId());
      if (split.finished()) {
        finished.add(split.shardId());
      } else {
        pending.put(split.shardId(), split);
      }
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
    } else if (event instanceof ShardFinished done) {
      assigned.remove(done.shardId());
      pending.remove(done.shardId());
      finished.add(done.shardId());
      assignPending();
      signalIfCaughtUp();
    } else if (event instanceof SplitCaughtUp up) {
      caughtUp.add(up.splitId());
      signalIfCaughtUp();
    }
  }

  @Override
  public KinesisEnumeratorState snapshotState(long checkpointId) {
    return new KinesisEnumeratorState(assigned, finished, List.copyOf(pending.values()));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    positions.onCheckpointComplete(checkpointId, Map.of());
  }

  @Override
  public void close() {
    if (client != null) {
      FanOutConsumer.deregister(config, client);
      client.close();
    }
  }
}
