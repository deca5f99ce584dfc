package io.lakestream.connectors.kinesis.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kinesis.KinesisErrorClass;
import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.source.enumerator.ShardFinished;
import io.lakestream.connectors.kinesis.source.fanout.FanOutConnection;
import io.lakestream.connectors.kinesis.source.fanout.FanOutConsumer;
import io.lakestream.connectors.kinesis.source.fanout.ShardSubscription;
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
import java.util.function.Function;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ExpiredIteratorException;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.kinesis.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ResourceInUseException;
import software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.kinesis.model.StartingPosition;
import software.amazon.awssdk.services.kinesis.model.SubscribeToShardEvent;

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
 *
 * <p>consumerMode efo: instead of GetRecords each shard has a SubscribeToShard subscription of the
 * source's consumer ({@link FanOutConsumer}), whose events are taken on the task thread as they
 * arrive; it is renewed from the last continuation sequence number when it ends and every 5
 * minutes, and a restore subscribes AFTER_SEQUENCE_NUMBER of the checkpointed position, so
 * positions, shard ends (an event with child shards), availableNow and the per-epoch limit (an
 * event's remaining records wait) behave as in polling mode, and a query may switch modes across
 * restarts. Failed subscriptions are retried with backoff, then fail the task with {@code
 * KINESIS_SOURCE_SUBSCRIPTION_FAILED} naming the option to change.
 */
@Internal
public final class KinesisShardReader implements SourceReader<Row, KinesisShardSplit> {
  private static final Logger LOG = LoggerFactory.getLogger(KinesisShardReader.class);
  private static final long SUBSCRIPTION_REFRESH_MILLIS = 5 * 60 * 1000;

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
  private final Function<KinesisClient, FanOutConnection> fanOutOpener;
  private KinesisClient client;
  private FanOutConnection fanOut;
  private long readThisEpoch;

  /**
   * A shard being read: its split (position), its iterator (polling) or subscription and last
   * continuation sequence number (efo), a batch not emitted to its end, and pacing.
   */
  private static final class Cursor {
    KinesisShardSplit split;
    String iterator;
    ShardSubscription subscription;
    String continuation;
    Batch pending;
    int failures;
    long nextFetchAt;
    boolean caughtUp;

    Cursor(KinesisShardSplit split) {
      this.split = split;
    }
  }

  /** Records of one GetRecords call or subscription event, emitted from {@code next} on. */
  private static final class Batch {
    final List<Record> records;
    final Long millisBehind;
    final boolean shardEnd;
    int next;

    Batch(List<Record> records, Long millisBehind, boolean shardEnd) {
      this.records = records;
      this.millisBehind = millisBehind;
      this.shardEnd = shardEnd;
    }
  }

  public KinesisShardReader(
      SourceReaderContext context,
      KinesisSourceConfig config,
      long runStartMillis,
      long maxRecordsPerEpoch) {
    this(
        context,
        config,
        runStartMillis,
        maxRecordsPerEpoch,
        client ->
            FanOutConnection.open(config, client, "kinesis-efo-" + context.getIndexOfSubtask()));
  }

  /**
   * A reader whose consumerMode efo subscriptions go through the connection {@code fanOutOpener}
   * opens at {@link #start()} from the reader's client (the seam where tests deliver built events).
   */
  KinesisShardReader(
      SourceReaderContext context,
      KinesisSourceConfig config,
      long runStartMillis,
      long maxRecordsPerEpoch,
      Function<KinesisClient, FanOutConnection> fanOutOpener) {
    this.context = context;
    this.config = config;
    this.runStartMillis = runStartMillis;
    this.maxRecordsPerEpoch = maxRecordsPerEpoch;
    this.fanOutOpener = fanOutOpener;
  }

  @Override
  public void start() {
    client = config.client();
    if (config.fanOut() != null) {
      fanOut = fanOutOpener.apply(client);
    }
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
      if (!c.caughtUp && (c.pending != null || wakeAt(c) <= now || signalled(c))) {
        return c;
      }
    }
    return null;
  }

  /**
   * When the cursor is ready by time alone (Long.MAX_VALUE: only when its subscription signals).
   */
  private long wakeAt(Cursor c) {
    if (c.subscription == null) {
      return c.nextFetchAt;
    }
    return c.subscription.ageMillis() > SUBSCRIPTION_REFRESH_MILLIS
        ? 0
        : System.currentTimeMillis() + SUBSCRIPTION_REFRESH_MILLIS - c.subscription.ageMillis();
  }

  private static boolean signalled(Cursor c) {
    return c.subscription != null && (c.subscription.hasEvent() || c.subscription.ended());
  }

  private void fetch(Cursor cursor, ReaderOutput<Row> output) {
    String shardId = cursor.split.shardId();
    cursors.remove(shardId); // to the end of the line: shards take turns
    cursors.put(shardId, cursor);
    Batch batch = cursor.pending;
    if (batch == null) {
      batch = fanOut == null ? getRecords(cursor) : receive(cursor);
    }
    if (batch != null) {
      emit(cursor, batch, output);
    }
  }

  /** Polling mode: one GetRecords call (null when it must be retried later). */
  private Batch getRecords(Cursor cursor) {
    GetRecordsResponse response;
    try {
      if (cursor.iterator == null) {
        cursor.iterator = client.getShardIterator(iteratorRequest(cursor.split)).shardIterator();
      }
      int limit = (int) Math.min(config.maxRecordsPerFetch(), maxRecordsPerEpoch - readThisEpoch);
      response = client.getRecords(r -> r.shardIterator(cursor.iterator).limit(limit));
    } catch (ExpiredIteratorException e) {
      cursor.iterator = null;
      return null;
    } catch (ProvisionedThroughputExceededException e) {
      cursor.nextFetchAt = System.currentTimeMillis() + 2 * config.minFetchPeriodMillis();
      return null;
    } catch (SdkException e) {
      throw readFailed(cursor.split.shardId(), e);
    }
    cursor.iterator = response.nextShardIterator();
    if (response.records().isEmpty() && cursor.iterator != null) {
      cursor.nextFetchAt = System.currentTimeMillis() + config.minFetchPeriodMillis();
    }
    return new Batch(response.records(), response.millisBehindLatest(), cursor.iterator == null);
  }

  /**
   * efo mode: the next event of the shard's subscription, (re)subscribing when there is none or it
   * ended or is 5 minutes old (null when nothing arrived yet).
   */
  private Batch receive(Cursor cursor) {
    ShardSubscription subscription = cursor.subscription;
    if (subscription == null) {
      cursor.subscription =
          fanOut.subscribe(cursor.split.shardId(), startingPosition(cursor), this::wakeUp);
      return null;
    }
    SubscribeToShardEvent event = subscription.poll();
    if (event != null) {
      cursor.failures = 0;
      cursor.continuation = event.continuationSequenceNumber();
      boolean end =
          cursor.continuation == null || (event.hasChildShards() && !event.childShards().isEmpty());
      if (end) {
        closeSubscription(cursor);
      }
      return new Batch(event.records(), event.millisBehindLatest(), end);
    }
    if (subscription.ended()) {
      Throwable failure = subscription.failure();
      cursor.subscription = null;
      if (failure != null) {
        retryOrFail(cursor, failure);
      }
    } else if (subscription.ageMillis() > SUBSCRIPTION_REFRESH_MILLIS) {
      closeSubscription(cursor);
    }
    return null;
  }

  private StartingPosition startingPosition(Cursor cursor) {
    String after = cursor.continuation != null ? cursor.continuation : cursor.split.afterSequence();
    if (after != null) {
      return StartingPosition.builder()
          .type(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
          .sequenceNumber(after)
          .build();
    }
    if (cursor.split.startMillis() >= 0) {
      return StartingPosition.builder()
          .type(ShardIteratorType.AT_TIMESTAMP)
          .timestamp(Instant.ofEpochMilli(cursor.split.startMillis()))
          .build();
    }
    return StartingPosition.builder().type(ShardIteratorType.TRIM_HORIZON).build();
  }

  /** Waits and subscribes again, or fails the task once retrying is pointless or exhausted. */
  private void retryOrFail(Cursor cursor, Throwable failure) {
    Throwable cause = rootKinesisError(failure);
    String shardId = cursor.split.shardId();
    if (cause instanceof AwsServiceException e
        && !(cause instanceof ResourceInUseException)
        && (e.statusCode() == 403 || e instanceof ResourceNotFoundException)) {
      throw subscriptionFailed(
          shardId,
          e.getMessage(),
          e instanceof ResourceNotFoundException
              ? "The consumer or shard no longer exists (was the consumer deregistered by another"
                  + " query with the same consumerName and requireConsumerDeregistration?); the"
                  + " restart registers it again"
              : "The credentials (awsAccessKey/awsSecretKey or the default chain) need"
                  + " kinesis:SubscribeToShard on the consumer; or read with consumerMode polling",
          cause);
    }
    boolean inUse = cause instanceof ResourceInUseException;
    if (++cursor.failures > (inUse ? 30 : 10)) {
      throw subscriptionFailed(
          shardId,
          cause.getMessage(),
          inUse
              ? "Another subscription of the same consumer holds the shard: give each query its"
                  + " own option consumerName (or registeredConsumerId)"
              : "The shard is read again from its checkpointed position after the restart",
          cause);
    }
    long backoff = inUse ? 1000 : Math.min(5000, 100L << Math.min(cursor.failures, 6));
    LOG.info("Subscription to shard {} failed ({}); again in {} ms", shardId, cause, backoff);
    cursor.nextFetchAt = System.currentTimeMillis() + backoff;
  }

  private static Throwable rootKinesisError(Throwable failure) {
    Throwable t = failure;
    while (t.getCause() != null && !(t instanceof AwsServiceException) && t.getCause() != t) {
      t = t.getCause();
    }
    return t instanceof AwsServiceException ? t : failure;
  }

  private LakestreamException subscriptionFailed(
      String shardId, String what, String advice, Throwable cause) {
    return new LakestreamException(
        KinesisErrorClass.KINESIS_SOURCE_SUBSCRIPTION_FAILED,
        "Cannot subscribe to shard "
            + shardId
            + " of "
            + config.describe()
            + " with consumer "
            + fanOut.consumerArn()
            + " (option consumerMode efo): "
            + what
            + ". "
            + advice,
        cause);
  }

  private static void closeSubscription(Cursor cursor) {
    if (cursor.subscription != null) {
      cursor.subscription.cancel();
      cursor.subscription = null;
    }
  }

  /**
   * Emits the batch's records up to the epoch's limit (the rest waits in the cursor); then a shard
   * end finishes the split, and in availableNow a batch with nothing new catches it up.
   */
  private void emit(Cursor cursor, Batch batch, ReaderOutput<Row> output) {
    String shardId = cursor.split.shardId();
    while (batch.next < batch.records.size() && readThisEpoch < maxRecordsPerEpoch) {
      Record record = batch.records.get(batch.next++);
      Instant arrival = record.approximateArrivalTimestamp();
      if (arrival != null && arrival.toEpochMilli() > runStartMillis) {
        cursor.pending = null;
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
    cursor.pending = batch.next < batch.records.size() ? batch : null;
    if (cursor.pending != null) {
      return;
    }
    if (batch.shardEnd) {
      finish(cursor);
    } else if (batch.records.isEmpty()
        && runStartMillis != Long.MAX_VALUE
        && (batch.millisBehind == null || batch.millisBehind == 0)) {
      caughtUp(cursor);
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
    closeSubscription(cursor);
    context.sendSourceEventToCoordinator(new SplitCaughtUp(cursor.split.shardId()));
  }

  private void finish(Cursor cursor) {
    closeSubscription(cursor);
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
        long at = wakeAt(c);
        if (!c.caughtUp && at != Long.MAX_VALUE) {
          wait = Math.min(wait, Math.max(1, at - now));
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
    cursors.values().forEach(KinesisShardReader::closeSubscription);
    if (fanOut != null) {
      fanOut.close();
    }
    if (client != null) {
      client.close();
    }
  }
}
