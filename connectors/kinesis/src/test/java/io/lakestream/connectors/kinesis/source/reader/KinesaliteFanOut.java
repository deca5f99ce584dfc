package io.lakestream.connectors.kinesis.source.reader;

import io.lakestream.connectors.kinesis.source.fanout.FanOutConnection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ChildShard;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.StartingPosition;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardEvent;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardEventStream;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardRequest;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardResponse;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardResponseHandler;

/**
 * SubscribeToShard emulated over kinesalite's GetRecords, for driving the reader's efo path through
 * its {@link FanOutConnection} seam: each call reads the shard from the request's starting position
 * and delivers {@link SubscribeToShardEvent}s built as Kinesis documents them, on a thread of its
 * own (as netty would), one per requested item: up to {@code recordsPerEvent} records, the
 * continuation sequence number of the last one, and, at a closed shard's end, a null continuation
 * and the child shards (from ListShards). A call ends after {@code eventsPerSubscription} events
 * without a shard end, as a real one does after 5 minutes, so every reader renews its
 * subscriptions. Events of a {@link #hold held} shard wait until it is {@link #release released}.
 * Every call is recorded ({@link #calls}), and in the shared {@code timeline}.
 */
final class KinesaliteFanOut implements FanOutConnection.SubscribeToShardCall, AutoCloseable {
  private final KinesisClient client;
  private final String stream;
  private final int recordsPerEvent;
  private final int eventsPerSubscription;
  private final List<String> timeline;
  private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  private final ScheduledThreadPoolExecutor deliveries =
      new ScheduledThreadPoolExecutor(
          1,
          r -> {
            Thread t = new Thread(r, "efo-emulation");
            t.setDaemon(true);
            return t;
          });

  KinesaliteFanOut(
      KinesisClient client,
      String stream,
      int recordsPerEvent,
      int eventsPerSubscription,
      List<String> timeline) {
    this.client = client;
    this.stream = stream;
    this.recordsPerEvent = recordsPerEvent;
    this.eventsPerSubscription = eventsPerSubscription;
    this.timeline = timeline;
  }

  /** The connection a reader uses (its consumer ARN is made up: nothing checks it). */
  FanOutConnection connection() {
    return new FanOutConnection("arn:aws:kinesis:emulated/consumer/" + stream, this, () -> {});
  }

  /** Holds back the events of {@code shardId} until {@link #release}. */
  void hold(String shardId) {
    held.add(shardId);
  }

  void release(String shardId) {
    held.remove(shardId);
  }

  /** The calls made so far, in order. */
  List<Call> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  @Override
  public CompletableFuture<Void> subscribe(
      SubscribeToShardRequest request, SubscribeToShardResponseHandler handler) {
    Call call = new Call(request.shardId(), request.startingPosition(), handler);
    calls.add(call);
    timeline.add("subscribe " + request.shardId());
    deliveries.execute(
        () -> {
          handler.responseReceived(SubscribeToShardResponse.builder().build());
          handler.onEventStream(SdkPublisher.adapt(call));
        });
    return call.future;
  }

  /**
   * Stops delivering, letting a GetRecords call under way finish (kinesalite exits when a client
   * aborts a request).
   */
  @Override
  public void close() throws InterruptedException {
    deliveries.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    deliveries.shutdown();
    if (!deliveries.awaitTermination(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the emulated deliveries did not stop");
    }
  }

  /** One SubscribeToShard call: where it started, the events it delivered, how it ended. */
  final class Call implements Publisher<SubscribeToShardEventStream> {
    final String shardId;
    final StartingPosition position;
    final List<SubscribeToShardEvent> delivered = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> future = new CompletableFuture<>();
    private final SubscribeToShardResponseHandler handler;
    private Subscriber<? super SubscribeToShardEventStream> subscriber;
    private String iterator;
    private long demand;
    private volatile boolean cancelled;
    private boolean done;

    Call(String shardId, StartingPosition position, SubscribeToShardResponseHandler handler) {
      this.shardId = shardId;
      this.position = position;
      this.handler = handler;
      future.whenComplete((ok, error) -> cancelled |= future.isCancelled());
    }

    @Override
    public void subscribe(Subscriber<? super SubscribeToShardEventStream> s) {
      subscriber = s;
      s.onSubscribe(
          new Subscription() {
            @Override
            public void request(long n) {
              deliveries.execute(
                  () -> {
                    demand += n;
                    deliver();
                  });
            }

            @Override
            public void cancel() {
              cancelled = true;
            }
          });
    }

    /** Delivers events while there is demand and the shard has records (on the delivery thread). */
    private void deliver() {
      while (!cancelled && !done && demand > 0 && !deliveries.isShutdown()) {
        if (held.contains(shardId)) {
          deliveries.schedule(this::deliver, 20, TimeUnit.MILLISECONDS);
          return;
        }
        if (iterator == null) {
          iterator = client.getShardIterator(iteratorRequest()).shardIterator();
        }
        GetRecordsResponse response =
            client.getRecords(r -> r.shardIterator(iterator).limit(recordsPerEvent));
        iterator = response.nextShardIterator();
        List<Record> records = response.records();
        boolean shardEnd = iterator == null;
        if (records.isEmpty() && !shardEnd) {
          deliveries.schedule(this::deliver, 20, TimeUnit.MILLISECONDS); // nothing new yet
          return;
        }
        SubscribeToShardEvent event =
            SubscribeToShardEvent.builder()
                .records(records)
                .continuationSequenceNumber(
                    shardEnd ? null : records.get(records.size() - 1).sequenceNumber())
                .millisBehindLatest(response.millisBehindLatest())
                .childShards(shardEnd ? children() : List.of())
                .build();
        delivered.add(event);
        demand--;
        subscriber.onNext(event);
        if (shardEnd || delivered.size() == eventsPerSubscription) {
          done = true;
          subscriber.onComplete();
          handler.complete();
          future.complete(null);
        }
      }
    }

    private GetShardIteratorRequest iteratorRequest() {
      return GetShardIteratorRequest.builder()
          .streamName(stream)
          .shardId(shardId)
          .shardIteratorType(position.type())
          .startingSequenceNumber(position.sequenceNumber())
          .timestamp(position.timestamp())
          .build();
    }

    /** The shards split or merged from this one, as the closing event names them. */
    private List<ChildShard> children() {
      List<ChildShard> children = new ArrayList<>();
      for (Shard shard : client.listShards(r -> r.streamName(stream)).shards()) {
        List<String> parents = new ArrayList<>();
        if (shard.parentShardId() != null) {
          parents.add(shard.parentShardId());
        }
        if (shard.adjacentParentShardId() != null) {
          parents.add(shard.adjacentParentShardId());
        }
        if (parents.contains(shardId)) {
          children.add(
              ChildShard.builder()
                  .shardId(shard.shardId())
                  .parentShards(parents)
                  .hashKeyRange(shard.hashKeyRange())
                  .build());
        }
      }
      return children;
    }

    /** The continuation sequence number of the last event delivered, or null. */
    String lastContinuation() {
      synchronized (delivered) {
        return delivered.isEmpty()
            ? null
            : delivered.get(delivered.size() - 1).continuationSequenceNumber();
      }
    }
  }
}
