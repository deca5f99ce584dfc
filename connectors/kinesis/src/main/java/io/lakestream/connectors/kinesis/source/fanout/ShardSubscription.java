package io.lakestream.connectors.kinesis.source.fanout;

import io.lakestream.api.annotation.Internal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardEvent;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardEventStream;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardRequest;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardResponseHandler;

/**
 * One SubscribeToShard call: its events are queued as they arrive, one at a time (the next is
 * requested only when the reader took the last one, so a slow reader holds the shard back, not its
 * memory). {@code onSignal} runs (on a netty thread) when an event arrives or the subscription
 * ends; the reader then takes it with {@link #poll()} on its own thread. A subscription ends after
 * 5 minutes at the latest (Kinesis' limit); the reader subscribes again from the last continuation
 * sequence number.
 */
@Internal
public final class ShardSubscription {
  private final ConcurrentLinkedQueue<SubscribeToShardEvent> events = new ConcurrentLinkedQueue<>();
  private final Runnable onSignal;
  private final long startedAtMillis = System.currentTimeMillis();
  private volatile Subscription subscription;
  private volatile CompletableFuture<Void> call;

  private ShardSubscription(Runnable onSignal) {
    this.onSignal = onSignal;
  }

  /**
   * Makes {@code request} with {@code call}; {@code onSignal} runs on each event and when the call
   * ends.
   */
  static ShardSubscription open(
      FanOutConnection.SubscribeToShardCall call,
      SubscribeToShardRequest request,
      Runnable onSignal) {
    ShardSubscription s = new ShardSubscription(onSignal);
    SubscribeToShardResponseHandler handler =
        SubscribeToShardResponseHandler.builder().subscriber(() -> s.new EventSubscriber()).build();
    s.call = call.subscribe(request, handler);
    s.call.whenComplete((ok, error) -> onSignal.run());
    return s;
  }

  /** The next event, or null when none arrived (yet); asks for the one after it. */
  public SubscribeToShardEvent poll() {
    SubscribeToShardEvent event = events.poll();
    Subscription current = subscription;
    if (event != null && current != null) {
      current.request(1);
    }
    return event;
  }

  /** Whether an event is waiting. */
  public boolean hasEvent() {
    return !events.isEmpty();
  }

  /** Whether the call ended (normally or not) and every event was taken. */
  public boolean ended() {
    return call.isDone() && events.isEmpty();
  }

  /** Why the call failed, or null if it did not (or did not end). */
  public Throwable failure() {
    if (!call.isCompletedExceptionally()) {
      return null;
    }
    try {
      call.join();
      return null;
    } catch (java.util.concurrent.CompletionException e) {
      return e.getCause() == null ? e : e.getCause();
    } catch (java.util.concurrent.CancellationException e) {
      return e;
    }
  }

  /** Milliseconds since the call was made. */
  public long ageMillis() {
    return System.currentTimeMillis() - startedAtMillis;
  }

  /** Ends the call; queued events are dropped. */
  public void cancel() {
    Subscription current = subscription;
    if (current != null) {
      current.cancel();
    }
    call.cancel(true);
    events.clear();
  }

  private final class EventSubscriber implements Subscriber<SubscribeToShardEventStream> {
    @Override
    public void onSubscribe(Subscription s) {
      subscription = s;
      s.request(1);
    }

    @Override
    public void onNext(SubscribeToShardEventStream item) {
      if (item instanceof SubscribeToShardEvent event) {
        events.add(event);
        onSignal.run();
      } else {
        subscription.request(1);
      }
    }

    @Override
    public void onError(Throwable t) {
      onSignal.run();
    }

    @Override
    public void onComplete() {
      onSignal.run();
    }
  }
}
