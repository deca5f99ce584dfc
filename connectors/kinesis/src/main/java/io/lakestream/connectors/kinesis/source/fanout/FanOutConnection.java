package io.lakestream.connectors.kinesis.source.fanout;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.services.kinesis.KinesisAsyncClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.StartingPosition;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardRequest;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardResponseHandler;

/**
 * A reader's way to SubscribeToShard: the source's active consumer and the call that subscribes it
 * to a shard and delivers the events. {@link #open} is the real one (the consumer registered or
 * found by {@link FanOutConsumer}, an HTTP/2 client on two event-loop threads); tests build one
 * around a {@link SubscribeToShardCall} that delivers events they built, so the reader's handling
 * of them (positions, renewal, shard ends) runs unchanged.
 */
@Internal
public final class FanOutConnection implements AutoCloseable {
  private final String consumerArn;
  private final SubscribeToShardCall call;
  private final Runnable onClose;

  /**
   * A connection of consumer {@code consumerArn} whose subscriptions {@code call} makes; {@code
   * onClose} releases what the call needs.
   */
  public FanOutConnection(String consumerArn, SubscribeToShardCall call, Runnable onClose) {
    this.consumerArn = consumerArn;
    this.call = call;
    this.onClose = onClose;
  }

  /**
   * The real connection: waits until the source's consumer is ACTIVE (registering it if needed, see
   * {@link FanOutConsumer#activeArn}) and subscribes over netty on two daemon threads named {@code
   * threadName}.
   *
   * @throws io.lakestream.api.error.LakestreamException {@code KINESIS_SOURCE_CONSUMER_FAILED}
   */
  public static FanOutConnection open(
      KinesisSourceConfig config, KinesisClient client, String threadName) {
    String arn = FanOutConsumer.activeArn(config, client);
    SdkEventLoopGroup eventLoops =
        SdkEventLoopGroup.builder()
            .numberOfThreads(2)
            .threadFactory(
                r -> {
                  Thread t = new Thread(r, threadName);
                  t.setDaemon(true);
                  return t;
                })
            .build();
    KinesisAsyncClient asyncClient = config.asyncClient(eventLoops);
    return new FanOutConnection(
        arn,
        asyncClient::subscribeToShard,
        () -> {
          asyncClient.close();
          eventLoops.eventLoopGroup().shutdownGracefully(0, 1, TimeUnit.SECONDS);
        });
  }

  /** The consumer the subscriptions belong to. */
  public String consumerArn() {
    return consumerArn;
  }

  /**
   * Subscribes the consumer to {@code shardId} from {@code position}; see {@link
   * ShardSubscription}.
   */
  public ShardSubscription subscribe(String shardId, StartingPosition position, Runnable onSignal) {
    SubscribeToShardRequest request =
        SubscribeToShardRequest.builder()
            .consumerARN(consumerArn)
            .shardId(shardId)
            .startingPosition(position)
            .build();
    return ShardSubscription.open(call, request, onSignal);
  }

  @Override
  public void close() {
    onClose.run();
  }

  /**
   * One SubscribeToShard call, as {@link
   * KinesisAsyncClient#subscribeToShard(SubscribeToShardRequest, SubscribeToShardResponseHandler)}
   * makes it: the events go to {@code handler} (its event stream publisher, then complete or
   * exceptionOccurred) and the future completes when the call ends.
   */
  @FunctionalInterface
  public interface SubscribeToShardCall {
    /** Makes the call; the future completes (or fails) when it ends. */
    CompletableFuture<Void> subscribe(
        SubscribeToShardRequest request, SubscribeToShardResponseHandler handler);
  }
}
