package io.lakestream.testkit.kinesis;

import java.time.Duration;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/**
 * Stream set-up for tests against a Kinesis peer (kinesalite, kinesis-mock): creating a stream and
 * waiting for it to turn ACTIVE again after a creation or a reshard, as the service requires before
 * records are put or shards changed.
 */
public final class KinesisStreams {
  /** How long a stream may take to turn ACTIVE; the peers take milliseconds to a few seconds. */
  public static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(60);

  private KinesisStreams() {}

  /**
   * Creates {@code stream} with {@code shards} shards and waits until it is ACTIVE.
   *
   * @throws AssertionError if it is not active within {@link #ACTIVE_TIMEOUT}
   */
  public static void create(KinesisClient client, String stream, int shards)
      throws InterruptedException {
    client.createStream(r -> r.streamName(stream).shardCount(shards));
    awaitActive(client, stream);
  }

  /**
   * Waits until {@code stream} is ACTIVE (after its creation, a split or a merge).
   *
   * @throws AssertionError if it is not within {@link #ACTIVE_TIMEOUT}
   */
  public static void awaitActive(KinesisClient client, String stream) throws InterruptedException {
    long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
    while (status(client, stream) != StreamStatus.ACTIVE) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("stream " + stream + " not active within " + ACTIVE_TIMEOUT);
      }
      Thread.sleep(25);
    }
  }

  private static StreamStatus status(KinesisClient client, String stream) {
    return client
        .describeStreamSummary(r -> r.streamName(stream))
        .streamDescriptionSummary()
        .streamStatus();
  }
}
