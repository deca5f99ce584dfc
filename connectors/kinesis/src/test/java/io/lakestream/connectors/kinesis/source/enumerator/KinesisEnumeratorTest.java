package io.lakestream.connectors.kinesis.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.testkit.kinesis.KinesaliteExtension;
import io.lakestream.testkit.kinesis.KinesisStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * The enumerator against kinesalite after a split: restored with the parent still assigned (its end
 * came after the checkpoint), it holds the children back until the parent's reader reports it
 * finished again, then hands them out from their start; a repeated report changes nothing.
 */
class KinesisEnumeratorTest {
  @RegisterExtension static final KinesaliteExtension KINESIS = new KinesaliteExtension();

  private static List<String> assigned(MockSplitEnumeratorContext<KinesisShardSplit> context)
      throws Exception {
    context.getSentSourceEvent(); // runs the handlers queued in the coordinator thread
    List<String> ids = new ArrayList<>();
    for (SplitsAssignment<KinesisShardSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment().values().forEach(s -> s.forEach(split -> ids.add(split.shardId())));
    }
    return ids;
  }

  @Test
  void childrenWaitForTheirParentRestoredAsAssigned() throws Throwable {
    KinesisSourceConfig config =
        KinesisSourceOptions.parse(
            Map.of(
                "streamName", "split",
                "region", "us-east-1",
                "endpoint", KINESIS.endpoint().toString(),
                "awsAccessKey", "test",
                "awsSecretKey", "test",
                "initialPosition", "trim_horizon"));
    try (KinesisClient client = config.client()) {
      client.createStream(r -> r.streamName("split").shardCount(1));
      KinesisStreams.awaitActive(client, "split");
      client.splitShard(
          r ->
              r.streamName("split")
                  .shardToSplit("shardId-000000000000")
                  .newStartingHashKey("170141183460469231731687303715884105728"));
      KinesisStreams.awaitActive(client, "split");
    }
    MockSplitEnumeratorContext<KinesisShardSplit> context = new MockSplitEnumeratorContext<>(1);
    context.registerReader(new ReaderInfo(0, "localhost"));
    KinesisEnumerator enumerator =
        new KinesisEnumerator(
            context,
            config,
            new KinesisEnumeratorState(Set.of("shardId-000000000000"), Set.of(), List.of()),
            new EpochPositions(null, "split"),
            false);
    enumerator.start();
    context.runPeriodicCallable(0);
    assertThat(assigned(context)).as("children wait for the parent").isEmpty();
    assertThat(enumerator.snapshotState(1).pending())
        .extracting(KinesisShardSplit::shardId)
        .containsExactlyInAnyOrder("shardId-000000000001", "shardId-000000000002");

    enumerator.handleSourceEvent(0, new ShardFinished("shardId-000000000000"));
    enumerator.handleSourceEvent(0, new ShardFinished("shardId-000000000000"));
    context.runPeriodicCallable(0);
    assertThat(assigned(context))
        .containsExactlyInAnyOrder("shardId-000000000001", "shardId-000000000002");
    for (SplitsAssignment<KinesisShardSplit> a : context.getSplitsAssignmentSequence()) {
      a.assignment()
          .values()
          .forEach(
              splits ->
                  assertThat(splits)
                      .allSatisfy(
                          split -> {
                            assertThat(split.startMillis()).as("from the start").isNegative();
                            assertThat(split.parents()).containsExactly("shardId-000000000000");
                          }));
    }
    KinesisEnumeratorState state = enumerator.snapshotState(2);
    assertThat(state.finished()).containsExactly("shardId-000000000000");
    assertThat(state.pending()).isEmpty();
    enumerator.close();
  }
}
