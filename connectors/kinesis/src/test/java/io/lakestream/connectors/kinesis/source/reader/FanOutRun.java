package io.lakestream.connectors.kinesis.source.reader;

import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumerator;
import io.lakestream.connectors.kinesis.source.enumerator.KinesisEnumeratorState;
import io.lakestream.connectors.kinesis.source.enumerator.ShardFinished;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.source.EpochPositions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;

/**
 * One run of a Kinesis source in consumerMode efo with one reader, driven step by step on the test
 * thread: the real {@link KinesisEnumerator} (listing kinesalite's shards) and the real {@link
 * KinesisShardReader} subscribing through a {@link KinesaliteFanOut}; the test plays Flink's part,
 * passing the reader's events to the enumerator and its split assignments to the reader. Started
 * from a state (enumerator and reader) like a restore, or from the initial one. The {@code
 * timeline} records each subscription (by the fan-out), each shard the reader reported finished and
 * each split handed to it.
 */
final class FanOutRun implements AutoCloseable {
  private final MockSplitEnumeratorContext<KinesisShardSplit> enumeratorContext =
      new MockSplitEnumeratorContext<>(1);
  private final TestingReaderContext readerContext = new TestingReaderContext();
  private final TestingReaderOutput<Row> output = new TestingReaderOutput<>();
  private final KinesisEnumerator enumerator;
  private final KinesisShardReader reader;
  private final List<String> timeline;
  private int assignmentsTaken;

  FanOutRun(
      KinesisSourceConfig config,
      KinesisEnumeratorState enumeratorState,
      List<KinesisShardSplit> readerState,
      KinesaliteFanOut fanOut,
      List<String> timeline)
      throws Exception {
    this.timeline = timeline;
    enumerator =
        new KinesisEnumerator(
            enumeratorContext,
            config,
            enumeratorState,
            new EpochPositions(null, config.streamName()),
            false);
    reader =
        new KinesisShardReader(
            readerContext, config, Long.MAX_VALUE, Long.MAX_VALUE, client -> fanOut.connection());
    enumerator.start(); // its efo consumer registration is a one-time callable never run here
    if (!readerState.isEmpty()) {
      reader.addSplits(readerState);
    }
    enumeratorContext.registerReader(new ReaderInfo(0, "localhost"));
    reader.start();
    enumerator.addReader(0);
    listShards();
  }

  /** Lets the enumerator list the stream's shards (its periodic call) and waits for it. */
  void listShards() throws Exception {
    try {
      enumeratorContext.runPeriodicCallable(0);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
    enumeratorContext.getSentSourceEvent(); // runs what the listing queued in the coordinator
  }

  /** Passes the reader's events to the enumerator. */
  void passEventsToEnumerator() {
    List<SourceEvent> events = List.copyOf(readerContext.getSentEvents());
    readerContext.clearSentEvents();
    for (SourceEvent event : events) {
      enumerator.handleSourceEvent(0, event);
    }
  }

  /** The shards the reader reported finished since the events were last passed on. */
  List<String> finishedNotPassed() {
    List<String> ids = new ArrayList<>();
    for (SourceEvent event : readerContext.getSentEvents()) {
      if (event instanceof ShardFinished done) {
        ids.add(done.shardId());
      }
    }
    return ids;
  }

  /** Hands the enumerator's new assignments to the reader. */
  void passAssignmentsToReader() {
    List<SplitsAssignment<KinesisShardSplit>> assignments =
        enumeratorContext.getSplitsAssignmentSequence();
    for (; assignmentsTaken < assignments.size(); assignmentsTaken++) {
      List<KinesisShardSplit> splits =
          assignments.get(assignmentsTaken).assignment().getOrDefault(0, List.of());
      splits.forEach(split -> timeline.add("assigned " + split.shardId()));
      reader.addSplits(splits);
    }
  }

  /** One round: events and assignments passed on, then one pollNext (waiting briefly if idle). */
  void step() throws Exception {
    for (String shard : finishedNotPassed()) {
      timeline.add("finished " + shard);
    }
    passEventsToEnumerator();
    passAssignmentsToReader();
    readOnce();
  }

  /** One pollNext of the reader, waiting up to 20 ms for data when it has none. */
  void readOnce() throws Exception {
    if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
      try {
        reader.isAvailable().get(20, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        // poll again
      }
    }
  }

  /** Steps until {@code condition} holds (at most 30 s). */
  void stepUntil(BooleanSupplier condition, String what) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " not reached within 30 s; timeline " + timeline);
      }
      step();
    }
  }

  /** Reads (no events or assignments passed on) until {@code condition} holds (at most 30 s). */
  void readUntil(BooleanSupplier condition, String what) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " not reached within 30 s; timeline " + timeline);
      }
      readOnce();
    }
  }

  /** Steps for {@code millis} milliseconds. */
  void stepFor(long millis) throws Exception {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < until) {
      step();
    }
  }

  /** The rows read so far, in order. */
  List<Row> rows() {
    return output.getEmittedRecords();
  }

  /** The rows read so far from {@code shardId}. */
  List<Row> rows(String shardId) {
    return rows().stream().filter(r -> KinesisRecord.shardId(r).equals(shardId)).toList();
  }

  KinesisEnumeratorState enumeratorCheckpoint(long id) {
    return enumerator.snapshotState(id);
  }

  List<KinesisShardSplit> readerCheckpoint(long id) {
    return reader.snapshotState(id);
  }

  @Override
  public void close() throws Exception {
    reader.close();
    enumerator.close();
    enumeratorContext.close();
  }
}
