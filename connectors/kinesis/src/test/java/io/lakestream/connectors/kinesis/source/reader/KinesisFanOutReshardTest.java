package io.lakestream.connectors.kinesis.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumeratorState;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.testkit.kinesis.KinesaliteExtension;
import io.lakestream.testkit.kinesis.KinesisStreams;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Resharding under consumerMode efo, proven at the reader: kinesis-mock (the efo peer of the
 * ITCases) never ends a closed shard's subscription, so here the reader's SubscribeToShard calls go
 * to {@link KinesaliteFanOut}, which builds the events Kinesis sends from kinesalite's shards (a
 * closed shard's last event has a null continuation sequence number and its child shards), while
 * the real enumerator lists kinesalite's shards and hands them out ({@link FanOutRun}). Each call
 * ends after two events without a shard end, so every test also renews subscriptions. Checked: a
 * split's parent is read to its end and reported finished before either child is subscribed; a
 * merge's child waits for both parents; a restore from a checkpoint between a parent's end and its
 * children's start reads each child from its start once; a renewal continues AFTER_SEQUENCE_NUMBER
 * of the last continuation sequence number; and in each, the rows are exactly the records put, each
 * once, each shard's in sequence order.
 */
class KinesisFanOutReshardTest {
  @RegisterExtension static final KinesaliteExtension KINESIS = new KinesaliteExtension();

  private static final String LOW = "0"; // a hash key in the lower half
  private static final String HIGH = BigInteger.TWO.pow(127).add(BigInteger.ONE).toString();
  private static final String MIDDLE = BigInteger.TWO.pow(127).toString();
  private static final String PARENT = "shardId-000000000000";

  private static KinesisClient client;

  private final List<String> timeline = Collections.synchronizedList(new ArrayList<>());
  private final List<String> put = new ArrayList<>();

  @BeforeAll
  static void connect() {
    client = KINESIS.client();
  }

  @Test
  void splitReadsTheParentToItsEndBeforeEitherChild() throws Exception {
    String stream = "efo-split";
    createStream(stream, 1);
    putRecords(stream, "a", LOW, 3);
    putRecords(stream, "b", HIGH, 3);
    try (KinesaliteFanOut fanOut = new KinesaliteFanOut(client, stream, 2, 2, timeline);
        FanOutRun run = startRun(stream, fanOut)) {
      run.stepUntil(() -> run.rows().size() == 6, "the parent's records read");
      split(stream, PARENT);
      putRecords(stream, "a", LOW, 4);
      putRecords(stream, "b", HIGH, 4);
      run.listShards();
      run.stepUntil(() -> run.rows().size() == 14, "the children's records read");
      run.stepFor(200);

      assertExactlyOnce(run.rows());
      List<String> children = List.of("shardId-000000000001", "shardId-000000000002");
      for (String child : children) {
        assertThat(timeline.indexOf("finished " + PARENT))
            .as("parent finished before " + child + " is handed out")
            .isNotNegative()
            .isLessThan(timeline.indexOf("assigned " + child))
            .isLessThan(timeline.indexOf("subscribe " + child));
        assertThat(run.rows(child)).hasSize(4);
      }
      assertParentRowsFirst(run.rows(), Set.of(PARENT));
      assertRenewals(fanOut);

      Map<String, KinesisShardSplit> checkpoint = byShard(run.readerCheckpoint(1));
      assertThat(checkpoint.get(PARENT).finished()).isTrue();
      assertPositions(checkpoint, run);
      assertThat(run.enumeratorCheckpoint(1).finished()).containsExactly(PARENT);
    }
  }

  @Test
  void mergeReadsTheChildOnlyOnceBothParentsEnded() throws Exception {
    String stream = "efo-merge";
    createStream(stream, 2);
    String first = "shardId-000000000000";
    String second = "shardId-000000000001";
    String child = "shardId-000000000002";
    putRecords(stream, "a", LOW, 3);
    putRecords(stream, "b", HIGH, 3);
    try (KinesaliteFanOut fanOut = new KinesaliteFanOut(client, stream, 2, 2, timeline);
        FanOutRun run = startRun(stream, fanOut)) {
      fanOut.hold(second);
      run.stepUntil(() -> run.rows(first).size() == 3, "the first parent's records read");
      client.mergeShards(
          r -> r.streamName(stream).shardToMerge(first).adjacentShardToMerge(second));
      KinesisStreams.awaitActive(client, stream);
      putRecords(stream, "a", LOW, 4);
      putRecords(stream, "b", HIGH, 4);
      run.listShards();
      run.stepUntil(() -> timeline.contains("finished " + first), "the first parent's end");
      run.stepFor(300);
      assertThat(timeline)
          .as("child waits for the second parent")
          .doesNotContain("assigned " + child, "subscribe " + child);
      assertThat(run.rows(second)).isEmpty();

      fanOut.release(second);
      run.stepUntil(() -> run.rows().size() == 14, "all records read");
      run.stepFor(200);

      assertExactlyOnce(run.rows());
      assertThat(run.rows(child)).hasSize(8);
      for (String parent : List.of(first, second)) {
        assertThat(timeline.indexOf("finished " + parent))
            .as(parent + " finished before the child is handed out")
            .isNotNegative()
            .isLessThan(timeline.indexOf("assigned " + child));
      }
      assertParentRowsFirst(run.rows(), Set.of(first, second));
      assertRenewals(fanOut);
      Map<String, KinesisShardSplit> checkpoint = byShard(run.readerCheckpoint(1));
      assertThat(checkpoint.get(first).finished()).isTrue();
      assertThat(checkpoint.get(second).finished()).isTrue();
      assertPositions(checkpoint, run);
    }
  }

  /**
   * Checkpoints once the reader reported the parent finished: either before the enumerator heard of
   * it (children pending there) or after it handed the children to the reader (fresh splits in the
   * reader's state); the restored run must read each child from its start, once.
   */
  @ParameterizedTest(name = "children handed out before the checkpoint: {0}")
  @ValueSource(booleans = {false, true})
  void restoreBetweenParentEndAndChildStartReadsEachChildOnce(boolean childrenHandedOut)
      throws Exception {
    String stream = "efo-restore-" + childrenHandedOut;
    createStream(stream, 1);
    putRecords(stream, "a", LOW, 3);
    putRecords(stream, "b", HIGH, 3);
    split(stream, PARENT);
    putRecords(stream, "a", LOW, 4);
    putRecords(stream, "b", HIGH, 4);
    KinesisEnumeratorState enumeratorState;
    List<KinesisShardSplit> readerState;
    List<Row> beforeCheckpoint;
    try (KinesaliteFanOut fanOut = new KinesaliteFanOut(client, stream, 2, 2, timeline);
        FanOutRun run = startRun(stream, fanOut)) {
      run.passAssignmentsToReader(); // the parent; the enumerator holds the children back
      run.readUntil(() -> run.finishedNotPassed().contains(PARENT), "the parent's end");
      if (childrenHandedOut) {
        run.passEventsToEnumerator();
        run.passAssignmentsToReader();
      }
      assertThat(timeline)
          .doesNotContain("subscribe shardId-000000000001", "subscribe shardId-000000000002");
      enumeratorState = run.enumeratorCheckpoint(1);
      readerState = run.readerCheckpoint(1);
      beforeCheckpoint = List.copyOf(run.rows());
    }
    assertThat(beforeCheckpoint).hasSize(6);
    Map<String, KinesisShardSplit> restored = byShard(readerState);
    assertThat(restored.get(PARENT).finished()).isTrue();
    assertThat(restored.get(PARENT).recordsRead()).isEqualTo(6);
    if (childrenHandedOut) {
      assertThat(enumeratorState.finished()).containsExactly(PARENT);
      assertThat(restored).hasSize(3);
    } else {
      assertThat(enumeratorState.assigned()).containsExactly(PARENT);
      assertThat(enumeratorState.pending()).hasSize(2);
      assertThat(restored).hasSize(1);
    }

    timeline.clear();
    try (KinesaliteFanOut fanOut = new KinesaliteFanOut(client, stream, 2, 2, timeline);
        FanOutRun run = startRun(stream, fanOut, enumeratorState, readerState)) {
      run.stepUntil(() -> run.rows().size() == 8, "the children's records read");
      run.stepFor(200);
      List<Row> all = new ArrayList<>(beforeCheckpoint);
      all.addAll(run.rows());
      assertExactlyOnce(all);
      assertThat(run.rows(PARENT)).isEmpty();
      assertThat(fanOut.calls())
          .as("the parent is not subscribed again")
          .noneMatch(c -> c.shardId.equals(PARENT));
      for (String child : List.of("shardId-000000000001", "shardId-000000000002")) {
        KinesaliteFanOut.Call firstCall =
            fanOut.calls().stream().filter(c -> c.shardId.equals(child)).findFirst().orElseThrow();
        assertThat(firstCall.position.type())
            .as(child + " from its start")
            .isEqualTo(ShardIteratorType.TRIM_HORIZON);
        assertThat(run.rows(child)).hasSize(4);
      }
      assertRenewals(fanOut);
    }
  }

  /**
   * A subscription that ends without a shard end (after 5 minutes, at the latest, in Kinesis) is
   * renewed AFTER_SEQUENCE_NUMBER of the last event's continuation sequence number: nothing lost,
   * nothing twice.
   */
  @Test
  void renewsAnEndedSubscriptionAfterItsContinuation() throws Exception {
    String stream = "efo-renewal";
    createStream(stream, 1);
    putRecords(stream, "a", LOW, 9);
    try (KinesaliteFanOut fanOut = new KinesaliteFanOut(client, stream, 2, 2, timeline);
        FanOutRun run = startRun(stream, fanOut)) {
      run.stepUntil(() -> run.rows().size() == 9, "the records read");
      run.stepFor(200);
      assertExactlyOnce(run.rows());
      assertThat(fanOut.calls()).hasSizeGreaterThanOrEqualTo(3);
      assertThat(fanOut.calls().get(0).position.type()).isEqualTo(ShardIteratorType.TRIM_HORIZON);
      assertRenewals(fanOut);
      assertPositions(byShard(run.readerCheckpoint(1)), run);
    }
  }

  private FanOutRun startRun(String stream, KinesaliteFanOut fanOut) throws Exception {
    return startRun(stream, fanOut, KinesisEnumeratorState.initial(), List.of());
  }

  private FanOutRun startRun(
      String stream,
      KinesaliteFanOut fanOut,
      KinesisEnumeratorState enumeratorState,
      List<KinesisShardSplit> readerState)
      throws Exception {
    return new FanOutRun(config(stream), enumeratorState, readerState, fanOut, timeline);
  }

  private static KinesisSourceConfig config(String stream) {
    return KinesisSourceOptions.parse(
        Map.of(
            "streamName", stream,
            "region", "us-east-1",
            "endpoint", KINESIS.endpoint().toString(),
            "awsAccessKey", "test",
            "awsSecretKey", "test",
            "initialPosition", "trim_horizon",
            "consumerMode", "efo",
            "consumerName", "reshard",
            "requireConsumerDeregistration", "false"));
  }

  /** The rows are the records put, each once, and each shard's come in sequence order. */
  private void assertExactlyOnce(List<Row> rows) {
    List<String> lines =
        rows.stream()
            .map(
                r ->
                    KinesisRecord.partitionKey(r)
                        + "|"
                        + new String(KinesisRecord.data(r), StandardCharsets.UTF_8))
            .toList();
    assertThat(lines).containsExactlyInAnyOrderElementsOf(put);
    Map<String, BigInteger> last = new java.util.HashMap<>();
    for (Row row : rows) {
      BigInteger seq = new BigInteger(KinesisRecord.sequenceNumber(row));
      BigInteger before = last.put(KinesisRecord.shardId(row), seq);
      if (before != null) {
        assertThat(seq).as("order in " + KinesisRecord.shardId(row)).isGreaterThan(before);
      }
    }
  }

  /** Every row of {@code parents} comes before any row of another shard. */
  private static void assertParentRowsFirst(List<Row> rows, Set<String> parents) {
    boolean childSeen = false;
    for (Row row : rows) {
      boolean parent = parents.contains(KinesisRecord.shardId(row));
      assertThat(parent && childSeen).as("a parent's row after a child's").isFalse();
      childSeen |= !parent;
    }
  }

  /**
   * Each call after a shard's first continues AFTER_SEQUENCE_NUMBER of the continuation of the
   * shard's previous call.
   */
  private static void assertRenewals(KinesaliteFanOut fanOut) {
    Map<String, KinesaliteFanOut.Call> previous = new java.util.HashMap<>();
    int renewals = 0;
    for (KinesaliteFanOut.Call call : fanOut.calls()) {
      KinesaliteFanOut.Call before = previous.put(call.shardId, call);
      if (before != null && before.lastContinuation() != null) {
        renewals++;
        assertThat(call.position.type()).isEqualTo(ShardIteratorType.AFTER_SEQUENCE_NUMBER);
        assertThat(call.position.sequenceNumber()).isEqualTo(before.lastContinuation());
      }
    }
    assertThat(renewals).as("subscriptions renewed").isPositive();
  }

  /** The checkpointed split of each shard read is after its last row, counting its rows. */
  private static void assertPositions(Map<String, KinesisShardSplit> checkpoint, FanOutRun run) {
    Set<String> shards = new HashSet<>();
    run.rows().forEach(r -> shards.add(KinesisRecord.shardId(r)));
    for (String shard : shards) {
      List<Row> rows = run.rows(shard);
      KinesisShardSplit split = checkpoint.get(shard);
      assertThat(split.recordsRead()).as(shard).isEqualTo(rows.size());
      assertThat(split.afterSequence())
          .as(shard)
          .isEqualTo(KinesisRecord.sequenceNumber(rows.get(rows.size() - 1)));
    }
  }

  private static Map<String, KinesisShardSplit> byShard(List<KinesisShardSplit> splits) {
    Map<String, KinesisShardSplit> map = new java.util.HashMap<>();
    splits.forEach(s -> map.put(s.shardId(), s));
    return map;
  }

  private void putRecords(String stream, String key, String hashKey, int count) {
    for (int i = 0; i < count; i++) {
      String data = key + "-" + put.size();
      client.putRecord(
          r ->
              r.streamName(stream)
                  .partitionKey(key)
                  .explicitHashKey(hashKey)
                  .data(SdkBytes.fromUtf8String(data)));
      put.add(key + "|" + data);
    }
  }

  private static void createStream(String stream, int shards) throws InterruptedException {
    client.createStream(r -> r.streamName(stream).shardCount(shards));
    KinesisStreams.awaitActive(client, stream);
  }

  private static void split(String stream, String shard) throws InterruptedException {
    client.splitShard(r -> r.streamName(stream).shardToSplit(shard).newStartingHashKey(MIDDLE));
    KinesisStreams.awaitActive(client, stream);
  }
}
