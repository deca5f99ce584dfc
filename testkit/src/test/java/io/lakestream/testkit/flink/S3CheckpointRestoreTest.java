package io.lakestream.testkit.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.s3.S3ServerExtension;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.checkpoint.RestoredCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * A keyed, checkpointed job that checkpoints (RocksDB, incremental) to the S3 server, is cancelled,
 * and restarts from its retained S3 checkpoint: the final counts are exact only if both the keyed
 * state and the source position were restored.
 */
class S3CheckpointRestoreTest {

  private static final int KEYS = 10;
  private static final long RECORDS = 3000;
  private static final long RECORDS_PER_SECOND = 400;

  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension();

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK =
      FlinkMiniClusterExtension.checkpointingTo(S3, "checkpoints");

  /** What each run emitted: run name -> (key, running count) in arrival order. */
  static final Map<String, Queue<Tuple2<Long, Long>>> EMITTED = new ConcurrentHashMap<>();

  @Test
  void restoresKeyedStateAndSourcePositionFromTheRetainedS3Checkpoint() {
    FlinkMiniCluster cluster = FLINK.cluster();
    assertThat(cluster.checkpointDirectory()).hasToString("s3://" + S3.bucket() + "/checkpoints");

    long t0 = System.nanoTime();
    JobID first = FLINK.submit(pipeline(FLINK.environment(), "first"));
    cluster.waitForCompletedCheckpoints(first, 2, Duration.ofMinutes(1));
    long t1 = System.nanoTime();
    cluster.cancel(first, Duration.ofMinutes(1));
    long t2 = System.nanoTime();

    URI checkpoint = cluster.latestRetainedCheckpoint(first).orElseThrow();
    assertThat(checkpoint.toString())
        .startsWith("s3://" + S3.bucket() + "/checkpoints/" + first + "/chk-");
    String checkpointKey = checkpoint.getPath().substring(1) + "/_metadata";
    assertThat(S3.keys("checkpoints/" + first + "/")).contains(checkpointKey);
    assertThat(S3.server().read(checkpointKey)).isNotEmpty();

    JobID second = FLINK.submit(pipeline(FLINK.environment(), "second"), checkpoint);
    cluster.waitForSuccess(second, Duration.ofMinutes(2));
    long t3 = System.nanoTime();

    RestoredCheckpointStats restored =
        cluster
            .miniCluster()
            .getExecutionGraph(second)
            .join()
            .getCheckpointStatsSnapshot()
            .getLatestRestoredCheckpoint();
    assertThat(restored).isNotNull();
    assertThat(restored.getExternalPath()).isEqualTo(checkpoint.toString());

    Map<Long, List<Long>> countsByKey = new TreeMap<>();
    for (Tuple2<Long, Long> emitted : EMITTED.get("second")) {
      countsByKey.computeIfAbsent(emitted.f0, k -> new ArrayList<>()).add(emitted.f1);
    }
    assertThat(countsByKey).hasSize(KEYS);
    long perKey = RECORDS / KEYS;
    long emittedBySecondRun = 0;
    boolean someKeyContinued = false;
    for (Map.Entry<Long, List<Long>> entry : countsByKey.entrySet()) {
      List<Long> counts = entry.getValue();
      long firstCount = counts.get(0);
      // each key's counts continue from the restored state without gaps or repeats up to the total
      List<Long> expected = new ArrayList<>();
      for (long c = firstCount; c <= perKey; c++) {
        expected.add(c);
      }
      assertThat(counts).as("counts of key %s", entry.getKey()).isEqualTo(expected);
      someKeyContinued |= firstCount > 1;
      emittedBySecondRun += counts.size();
    }
    LoggerFactory.getLogger(S3CheckpointRestoreTest.class)
        .info(
            "restored from {}; the second run emitted {} of {} records; ms to 2 checkpoints {},"
                + " to cancel {}, second run {}",
            checkpoint,
            emittedBySecondRun,
            RECORDS,
            (t1 - t0) / 1_000_000,
            (t2 - t1) / 1_000_000,
            (t3 - t2) / 1_000_000);
    assertThat(someKeyContinued).as("the second run resumed from restored state").isTrue();
    assertThat(emittedBySecondRun).as("the second run resumed the source").isLessThan(RECORDS);
  }

  private static StreamExecutionEnvironment pipeline(StreamExecutionEnvironment env, String run) {
    EMITTED.put(run, new ConcurrentLinkedQueue<>());
    GeneratorFunction<Long, Long> identity = index -> index;
    DataGeneratorSource<Long> source =
        new DataGeneratorSource<>(
            identity, RECORDS, RateLimiterStrategy.perSecond(RECORDS_PER_SECOND), Types.LONG);
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers")
        .uid("numbers")
        .keyBy(index -> index % KEYS)
        .process(new RunningCount())
        .uid("running-count")
        .sinkTo(new CollectingSink(run))
        .uid("collect");
    return env;
  }

  /** Emits (key, number of records seen for the key so far), kept in keyed state. */
  static final class RunningCount extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>> {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext openContext) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out)
        throws Exception {
      long next = (count.value() == null ? 0 : count.value()) + 1;
      count.update(next);
      out.collect(Tuple2.of(ctx.getCurrentKey(), next));
    }
  }

  /** Appends every record to {@link #EMITTED} under the run name. */
  static final class CollectingSink implements Sink<Tuple2<Long, Long>> {
    private final String run;

    CollectingSink(String run) {
      this.run = run;
    }

    @Override
    public SinkWriter<Tuple2<Long, Long>> createWriter(WriterInitContext context) {
      return writer();
    }

    @Override
    @SuppressWarnings("deprecation")
    public SinkWriter<Tuple2<Long, Long>> createWriter(InitContext context) {
      return writer();
    }

    private SinkWriter<Tuple2<Long, Long>> writer() {
      Queue<Tuple2<Long, Long>> target = EMITTED.get(run);
      return new SinkWriter<>() {
        @Override
        public void write(Tuple2<Long, Long> element, Context context) {
          target.add(element);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
