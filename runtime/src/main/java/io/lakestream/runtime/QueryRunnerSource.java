package io.lakestream.runtime;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Carries the {@link QueryRunner} into the job: a source that never emits a row, whose split
 * enumerator (which Flink runs on the JobManager for as long as the job runs, whoever submitted it)
 * is the runner. One reader subtask idles beside the query's own operators, chained to a discarding
 * sink; neither holds state, so adding them to a job restored from a savepoint written without them
 * is a plain "new operator" for Flink.
 *
 * <p>Added by the launcher after the query's fingerprint is taken, so it is not one of the query's
 * sources for the restart checks.
 */
final class QueryRunnerSource
    implements Source<Void, QueryRunnerSource.NoSplit, QueryRunnerSource.NoState> {
  private static final long serialVersionUID = 1L;

  /** The uid of the runner's source operator (and, with {@code -sink}, of its sink). */
  static final String UID = "lakestream-query-runner";

  private final QueryRunner.Settings settings;

  QueryRunnerSource(QueryRunner.Settings settings) {
    this.settings = settings;
  }

  /** Adds the runner to the job being built in {@code env}. */
  static void addTo(StreamExecutionEnvironment env, QueryRunner.Settings settings) {
    env.fromSource(
            new QueryRunnerSource(settings),
            WatermarkStrategy.noWatermarks(),
            "lakestream query runner",
            BasicTypeInfo.VOID_TYPE_INFO)
        .uid(UID)
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .name("lakestream query runner (no output)")
        .uid(UID + "-sink")
        .setParallelism(1);
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Void, NoSplit> createReader(SourceReaderContext readerContext) {
    return new IdleReader();
  }

  @Override
  public SplitEnumerator<NoSplit, NoState> createEnumerator(
      SplitEnumeratorContext<NoSplit> context) {
    return new QueryRunner(context, settings);
  }

  @Override
  public SplitEnumerator<NoSplit, NoState> restoreEnumerator(
      SplitEnumeratorContext<NoSplit> context, NoState checkpoint) {
    return new QueryRunner(context, settings);
  }

  @Override
  public SimpleVersionedSerializer<NoSplit> getSplitSerializer() {
    return new EmptySerializer<>(new NoSplit());
  }

  @Override
  public SimpleVersionedSerializer<NoState> getEnumeratorCheckpointSerializer() {
    return new EmptySerializer<>(new NoState());
  }

  /** The runner has no splits; the type exists because a source must name one. */
  static final class NoSplit implements SourceSplit, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public String splitId() {
      return "none";
    }
  }

  /**
   * The runner keeps nothing in Flink's checkpoints: what it reports lives in the checkpoint
   * location's files.
   */
  static final class NoState implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** Writes nothing and reads back {@code value}: version 1 of an empty format. */
  private record EmptySerializer<T>(T value) implements SimpleVersionedSerializer<T> {
    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(T obj) {
      return new byte[0];
    }

    @Override
    public T deserialize(int version, byte[] serialized) {
      return value;
    }
  }

  /** A reader that never has data (and never ends): the runner source emits nothing. */
  private static final class IdleReader implements SourceReader<Void, NoSplit> {
    private final CompletableFuture<Void> never = new CompletableFuture<>();

    @Override
    public void start() {}

    @Override
    public InputStatus pollNext(ReaderOutput<Void> output) {
      return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<NoSplit> snapshotState(long checkpointId) {
      return List.of();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return never;
    }

    @Override
    public void addSplits(List<NoSplit> splits) {}

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() {
      never.complete(null);
    }
  }
}
