package io.lakestream.connectors.kinesis.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kinesis.KinesisErrorClass;
import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.source.enumerator.ShardFinished;
import io.lakestream.connectors.kinesis.source.split.KinesisShardSplit;
import io.lakestream.connectors.source.PositionReport;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ExpiredIteratorException;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.kinesis.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Reads its shards in turn (round robin) with GetRecords (up to {@code maxRecordsPerFetch} a call),
 * on the task thread; a shard whose last call returned nothing is not asked again before {@code
 * minFetchPeriod}. Each record is emitted as a {@link KinesisRecord} row and advances its split to
 * after its sequence number, so a restore continues with AFTER_SEQUENCE_NUMBER: exactly once with a
 * sink that commits with the checkpoints. A shard whose iterator ends (closed by a reshard) is
 * reported with {@link ShardFinished} and kept, finished, in the state.
 *
 * <p>availableNow ({@code runStartMillis} below {@link Long#MAX_VALUE}): a shard stops at its first
 * record that arrived after the run started, or when it has nothing more and is not behind, and is
 * reported with {@link SplitCaughtUp}. {@code maxRecordsPerEpoch} pauses reading between
 * checkpoints. Positions (records read per shard) go to the enumerator with each snapshot ({@link
 * PositionReport}). Failures of GetShardIterator or GetRecords fail the task with {@code
 * KINESIS_SOURCE_READ_FAILED}; expired iterators are renewed, throttling waits.
 */
@Internal
public final class KinesisShardReader implements SourceReader<Row, KinesisShardSplit> {
  private static final Logger LOG = LoggerFactory.getLogger(KinesisShardReader.class);

  private final SourceReaderContext context;
  private final KinesisSourceConfig config;
  private final long runStartMillis;
  private final long maxRecordsPerEpoch;
  private final Map<String, Cursor> cursors = new LinkedHashMap<>();
  private final List<KinesisShardSplit> finished = new ArrayList<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "kinesis-reader-wakeup");
            t.setDaemon(true);
            return t;
          });
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private KinesisClient client;
  private long readThisEpoch;

  /** A shard being read: its split (position), iterator and pacing. */
  private static final class Cursor {
    KinesisShardSplit split;
    String iterator;
    long nextFetchAt;
    boolean caughtUp;

    Cursor(KinesisShardSplit split) {
      this.split = split;
    }
  }

  public KinesisShardReader(
      SourceReaderContext context,
      KinesisSourceConfig config,
      long runStartMillis,
      long maxRecordsPerEpoch) {
    this.context = context;
    this.config = config;
    this.runStartMillis = runStartMillis;
    this.maxRecordsPerEpoch = maxRecordsPerEpoch;
  }

  @Override
  public void start() {
    client = config.client();
    // restored finished shards, told now that the reader is registered with the enumerator
    finished.forEach(
        done -> context.sendSourceEventToCoordinator(new ShardFinished(done.shardId())));
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Row> output) {
    Cursor cursor = nextReady();
    if (cursor == null) {
      return InputStatus.NOTHING_AVAILABLE;
    }
    fetch(cursor, output);
    return nextReady() == null ? InputStatus.NOTHING_AVAILABLE : InputStatus.MORE_AVAILABLE;
  }

  private Cursor nextReady() {
    if (readThisEpoch >= maxRecordsPerEpoch) {
      return null;
    }
    long now = System.currentTimeMillis();
    for (Cursor c : cursors.values()) {
      if (!c.caughtUp && c.nextFetchAt <= now) {
        return c;
      }
    }
    return null;
  }

  private void fetch(Cursor cursor, ReaderOutput<Row> output) {
    String shardId = cursor.split.shardId();
    cursors.remove(shardId); // to the end of the line: shards take turns
    cursors.put(shardId, cursor);
    GetRecordsResponse response;
    try {
      if (cursor.iterator == null) {
        cursor.iterator = client.getShardIterator(iteratorRequest(cursor.split)).shardIterator();
      }
      int limit = (int) Math.min(config.maxRecordsPerFetch(), maxRecordsPerEpoch - readThisEpoch);
      response = client.getRecords(r -> r.shardIterator(cursor.iterator).limit(limit));
    } catch (ExpiredIteratorException e) {
      cursor.iterator = null;
      return;
    } catch (ProvisionedThroughputExceededException e) {
      cursor.nextFetchAt = System.currentTimeMillis() + 2 * config.minFetchPeriodMillis();
      return;
    } catch (SdkException e) {
      throw readFailed(shardId, e);
    }
    for (Record record : response.records()) {
      Instant arrival = record.approximateArrivalTimestamp();
      if (arrival != null && arrival.toEpochMilli() > runStartMillis) {
        caughtUp(cursor);
        return;
      }
      output.collect(
          KinesisRecord.of(
              record.partitionKey(),
              record.data().asByteArray(),
              config.streamName(),
              shardId,
              record.sequenceNumber(),
              arrival),
          arrival == null ? Long.MIN_VALUE : arrival.toEpochMilli());
      cursor.split = cursor.split.after(record.sequenceNumber());
      readThisEpoch++;
    }
    cursor.iterator = response.nextShardIterator();
    if (cursor.iterator == null) {
      finish(cursor);
    } else if (response.records().isEmpty()) {
      cursor.nextFetchAt = System.currentTimeMillis() + config.minFetchPeriodMillis();
      Long behind = response.millisBehindLatest();
      if (runStartMillis != Long.MAX_VALUE && (behind == null || behind == 0)) {
        caughtUp(cursor);
      }
    }
  }

  private GetShardIteratorRequest iteratorRequest(KinesisShardSplit split) {
    GetShardIteratorRequest.Builder request =
        GetShardIteratorRequest.builder().streamName(config.streamName()).shardId(split.shardId());
    if (split.afterSequence() != null) {
      return request
          .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
          .startingSequenceNumber(split.afterSequence())
          .build();
    }
    if (split.startMillis() >= 0) {
      return request
          .shardIteratorType(ShardIteratorType.AT_TIMESTAMP)
          .timestamp(Instant.ofEpochMilli(split.startMillis()))
          .build();
    }
    return request.shardIteratorType(ShardIteratorType.TRIM_HORIZON).build();
  }

  private void caughtUp(Cursor cursor) {
    cursor.caughtUp = true;
    cursor.iterator = null;
    context.sendSourceEventToCoordinator(new SplitCaughtUp(cursor.split.shardId()));
  }

  private void finish(Cursor cursor) {
    cursors.remove(cursor.split.shardId());
    KinesisShardSplit done = cursor.split.asFinished();
    finished.add(done);
    LOG.info(
        "Read closed shard {} of {} to its end ({} records)",
        done.shardId(),
        config.describe(),
        done.recordsRead());
    context.sendSourceEventToCoordinator(new ShardFinished(done.shardId()));
  }

  private LakestreamException readFailed(String shardId, SdkException e) {
    return new LakestreamException(
        KinesisErrorClass.KINESIS_SOURCE_READ_FAILED,
        "Cannot read shard "
            + shardId
            + " of "
            + config.describe()
            + ": "
            + e.getMessage()
            + "; the shard is read again from its checkpointed position after the restart",
        e);
  }

  @Override
  public List<KinesisShardSplit> snapshotState(long checkpointId) {
    List<KinesisShardSplit> splits = new ArrayList<>();
    Map<String, Long> report = new LinkedHashMap<>();
    for (Cursor c : cursors.values()) {
      splits.add(c.split);
      report.put(c.split.shardId(), c.split.recordsRead());
    }
    for (KinesisShardSplit done : finished) {
      splits.add(done);
      report.put(done.shardId(), done.recordsRead());
    }
    context.sendSourceEventToCoordinator(new PositionReport(checkpointId, report));
    readThisEpoch = 0;
    wakeUp();
    return splits;
  }

  @Override
  public synchronized CompletableFuture<Void> isAvailable() {
    if (nextReady() != null) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    long wait = Long.MAX_VALUE;
    long now = System.currentTimeMillis();
    if (readThisEpoch < maxRecordsPerEpoch) {
      for (Cursor c : cursors.values()) {
        if (!c.caughtUp) {
          wait = Math.min(wait, Math.max(1, c.nextFetchAt - now));
        }
      }
    }
    if (wait != Long.MAX_VALUE) {
      timer.schedule(this::wakeUp, wait, TimeUnit.MILLISECONDS);
    }
    return available;
  }

  private synchronized void wakeUp() {
    available.complete(null);
  }

  @Override
  public void addSplits(List<KinesisShardSplit> splits) {
    for (KinesisShardSplit split : splits) {
      if (split.finished()) {
        finished.add(split);
        if (client != null) { // else start() tells the enumerator
          context.sendSourceEventToCoordinator(new ShardFinished(split.shardId()));
        }
      } else {
        cursors.put(split.shardId(), new Cursor(split));
      }
    }
    wakeUp();
  }

  @Override
  public void notifyNoMoreSplits() {}

  @Override
  public void close() {
    timer.shutdownNow();
    if (client != null) {
      client.close();
    }
  }
}
