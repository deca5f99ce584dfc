package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.operators.dedup.DeduplicationBuilder;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.IncompatibleRestartException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QueryUpgrade} refuses a new program whose dedup state the running query's checkpoints
 * cannot give it, before it looks for the old job: {@code dropDuplicatesWithinWatermark} on other
 * key columns (same key type, so only the columns' names tell), and an added stateful operator. The
 * old query is running throughout (it holds the lease) and keeps committing epochs after both
 * refusals.
 */
class QueryUpgradeRefusalITCase {
  private static final String SINK = "deduped-sink";

  @TempDir Path dir;

  @Test
  void aChangedDedupKeyAndAnAddedStatefulOperatorAreRefusedWhileTheOldQueryKeepsCommitting()
      throws Exception {
    StreamingQuery old = program("key_a", false).start();
    try {
      long before = awaitEpochAfter(old, 0);

      assertThatThrownBy(() -> upgradeTo(program("key_b", false)))
          .isInstanceOf(IncompatibleRestartException.class)
          .hasMessageContaining("cannot restart from its checkpoint location")
          .hasMessageContainingAll("state schema of operator 'dedup'", "[key_a]", "[key_b]");
      assertThatThrownBy(() -> upgradeTo(program("key_a", true)))
          .isInstanceOf(IncompatibleRestartException.class)
          .hasMessageContaining("stateful operator 'dedup-again' was added");

      assertThat(old.isActive()).as("the refusals left the old query running").isTrue();
      awaitEpochAfter(old, before + 1);
    } finally {
      old.stop();
    }
    // the unchanged program still takes over the location
    assertThat(QueryUpgrade.to(program("key_a", false)).check().resumes()).isTrue();
  }

  /** The REST API is never reached: the check refuses first. */
  private static void upgradeTo(StreamingQueryBuilder program) throws Exception {
    QueryUpgrade.to(program).restApi(URI.create("http://127.0.0.1:1")).run(new Configuration());
  }

  private StreamingQueryBuilder program(String keyColumn, boolean secondDedup) {
    Path table = dir.resolve("table");
    Dataflow flow =
        (env, query) -> {
          DataStream<Long> rows =
              Watermarks.withWatermark(
                  env.fromSource(
                          RateSourceBuilder.rate(
                                  "numbers", new GuardsFixture.RowIndex(), Types.LONG)
                              .rows(1_000_000)
                              .numPartitions(2)
                              .rowsPerSecond(200)
                              .query(query)
                              .build(),
                          WatermarkStrategy.noWatermarks(),
                          "numbers")
                      .uid("numbers"),
                  row -> row * 1_000,
                  Duration.ofSeconds(10),
                  "numbers-watermark");
          DataStream<Long> deduped =
              DeduplicationBuilder.dropDuplicatesWithinWatermark(
                      rows, KeyColumns.of(keyColumn, (Long row) -> row % 7))
                  .uid("dedup")
                  .build();
          if (secondDedup) {
            deduped =
                DeduplicationBuilder.dropDuplicatesWithinWatermark(
                        deduped, KeyColumns.of("key_c", (Long row) -> row % 3))
                    .uid("dedup-again")
                    .build();
          }
          deduped
              .map(String::valueOf, Types.STRING)
              .uid("as-text")
              .sinkTo(
                  JsonLinesFileSink.create(
                      table.toString(),
                      new GuardsFixture.LineAsIs(),
                      new CommitRecordListener(query, SINK, "json-lines " + table)))
              .uid(SINK);
        };
    return StreamingQueryBuilder.of(flow)
        .queryName("upgrade-refusal")
        .checkpointLocation(dir.resolve("chk").toString())
        .trigger(Trigger.processingTime(Duration.ofMillis(500)))
        .parallelism(1)
        .stateBackend(StateBackendSettings.defaults());
  }

  private static long awaitEpochAfter(StreamingQuery query, long epoch) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline) {
      long now = query.lastProgress().map(QueryProgress::batchId).orElse(-1L);
      if (now > epoch) {
        return now;
      }
      assertThat(query.exception()).isEmpty();
      Thread.sleep(100);
    }
    throw new AssertionError("no epoch after " + epoch + " within 90 s");
  }
}
