package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.observe.Observe;
import io.lakestream.operators.observe.ObservedAggregate;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rate rows 0..1999 (2 partitions, 200 rows per epoch, availableNow) -> observe("numbers": count,
 * countIf odd, sum, min, max, avg of the row) -> a task that fails the checkpoint after its subtask
 * saw 300 rows, once -> JSON lines. The observe operator has recorded its shares of that checkpoint
 * when the failure restarts the job from the previous one, so the rows of that epoch are counted by
 * two attempts: every committed epoch's {@code observedMetrics} must still equal the aggregates of
 * exactly the rows the epoch read (known from its offsets) and wrote.
 */
class ObservedMetricsITCase {
  private static final long ROWS = 2_000;
  private static final int PARTITIONS = 2;
  static final AtomicBoolean FAILED = new AtomicBoolean();

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void reset() {
    FAILED.set(false);
  }

  /** Fails a checkpoint (and so the job) once, after its subtask has seen 300 rows. */
  static final class FailAtSnapshot implements MapFunction<Long, Long>, CheckpointedFunction {
    private long seen;

    @Override
    public Long map(Long row) {
      seen++;
      return row;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (seen >= 300 && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException(
            "injected failure at checkpoint " + context.getCheckpointId());
      }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
  }

  private Dataflow dataflow(Path table) {
    String out = table.toUri().toString();
    return (env, query) -> {
      var rows =
          env.fromSource(
                  RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                      .rows(ROWS)
                      .numPartitions(PARTITIONS)
                      .maxRowsPerTrigger(200)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "numbers")
              .uid("numbers");
      Observe.observe(
              rows,
              query,
              "numbers",
              ObservedAggregate.count("rows"),
              ObservedAggregate.countIf("odd", (Long r) -> r % 2 == 1),
              ObservedAggregate.sum("sum", (Long r) -> r),
              ObservedAggregate.min("min", (Long r) -> r),
              ObservedAggregate.max("max", (Long r) -> r),
              ObservedAggregate.avg("avg", (Long r) -> r),
              ObservedAggregate.ratio("oddRatio", "odd", "rows"))
          .rebalance()
          .map(new FailAtSnapshot())
          .uid("fail-at-snapshot")
          .map(String::valueOf)
          .returns(Types.STRING)
          .uid("format")
          .sinkTo(
              JsonLinesFileSink.create(
                  out, line -> line, new CommitRecordListener(query, "rows", "rows " + out)))
          .uid("rows");
    };
  }

  @Test
  void observedMetricsOfEveryEpochAreExactAfterAReplay() throws Exception {
    Path checkpoint = dir.resolve("checkpoint");
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    restarts.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 0);
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow(dir.resolve("rows")))
            .queryName("observed")
            .checkpointLocation(checkpoint.toString())
            .trigger(Trigger.availableNow())
            .parallelism(2)
            .flinkConfiguration(restarts)
            .start();
    query.awaitTermination();
    assertThat(FAILED).as("the injected failure happened").isTrue();

    List<QueryProgress> progress = query.recentProgress();
    EpochLog log = new CheckpointLocation(checkpoint.toUri()).epochs();
    long rows = 0;
    double sum = 0;
    Set<Long> reported = new HashSet<>();
    for (QueryProgress p : progress) {
      reported.add(p.batchId());
      JsonNode source = p.json().path("sources").get(0);
      Expected e = Expected.between(source.path("startOffset"), source.path("endOffset"));
      JsonNode observed = p.json().path("observedMetrics").path("numbers");
      String epoch = "epoch " + p.batchId() + ": " + observed;
      assertThat(observed.path("rows").asLong()).as(epoch).isEqualTo(e.rows);
      assertThat(observed.path("rows").asLong()).as(epoch).isEqualTo(p.numOutputRows());
      assertThat(observed.path("odd").asLong()).as(epoch).isEqualTo(e.odd);
      assertThat(observed.path("sum").asDouble()).as(epoch).isEqualTo((double) e.sum);
      if (e.rows > 0) {
        assertThat(observed.path("min").asDouble()).as(epoch).isEqualTo((double) e.min);
        assertThat(observed.path("max").asDouble()).as(epoch).isEqualTo((double) e.max);
        assertThat(observed.path("avg").asDouble()).as(epoch).isEqualTo((double) e.sum / e.rows);
        assertThat(observed.path("oddRatio").asDouble())
            .as(epoch)
            .isEqualTo((double) e.odd / e.rows);
      } else {
        assertThat(observed.path("min").isNull()).as(epoch).isTrue();
      }
      assertThat(log.readProgress(p.batchId()).orElseThrow().path("observedMetrics"))
          .isEqualTo(p.json().path("observedMetrics"));
      rows += observed.path("rows").asLong();
      sum += observed.path("sum").asDouble();
    }
    assertThat(rows).isEqualTo(ROWS);
    assertThat(sum).isEqualTo(ROWS * (ROWS - 1) / 2.0);

    // The failed attempt recorded rows for a checkpoint that never completed: they were replayed.
    long replayedRows = 0;
    for (long e : log.observedEpochs()) {
      for (JsonNode r : log.readObserved(e).values()) {
        if (!reported.contains(e) && r.path("attempt").asInt() == 0) {
          replayedRows += r.path("aggregates").path("rows").path("count").asLong();
        }
      }
    }
    assertThat(replayedRows).as("rows the failed attempt observed in its last epoch").isPositive();
  }

  /** The aggregates of the rows a rate source reads between two positions. */
  private record Expected(long rows, long odd, long sum, long min, long max) {
    static Expected between(JsonNode start, JsonNode end) {
      long rows = 0;
      long odd = 0;
      long sum = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (Iterator<Map.Entry<String, JsonNode>> it = end.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> split = it.next();
        int partition = Integer.parseInt(split.getKey().replaceAll("\\D", ""));
        long from = start.path(split.getKey()).asLong(0);
        for (long offset = from; offset < split.getValue().asLong(); offset++) {
          long row = offset * PARTITIONS + partition;
          rows++;
          odd += row % 2;
          sum += row;
          min = Math.min(min, row);
          max = Math.max(max, row);
        }
      }
      return new Expected(rows, odd, sum, min, max);
    }
  }
}
