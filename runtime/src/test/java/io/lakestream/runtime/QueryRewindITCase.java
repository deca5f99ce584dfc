package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.ReplayNotPossibleException;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restoring a query from an OLDER savepoint (a rewind) after a later run committed more epochs: the
 * epochs of the abandoned run are replayed exactly as committed, so the Delta table and the
 * JSON-lines table still hold every input row exactly once, keyed state continues from the older
 * savepoint, and the later run's savepoint is retired. Also: a failed run resumed by the next run
 * from its retained checkpoint.
 */
class QueryRewindITCase {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("key", ColumnType.LONG, false)
          .build();

  @TempDir Path dir;

  @BeforeEach
  @AfterEach
  void resetFailure() {
    CountingQuery.failAtRow = Long.MAX_VALUE;
    CountingQuery.FAILED.set(false);
  }

  private Dataflow dataflow(long rows, long maxRowsPerTrigger) {
    String counts = dir.resolve("counts").toUri().toString();
    String delta = dir.resolve("delta").toUri().toString();
    return (env, query) -> {
      DataStream<Long> numbers =
          env.fromSource(
                  RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                      .rows(rows)
                      .numPartitions(3)
                      .maxRowsPerTrigger(maxRowsPerTrigger)
                      .query(query)
                      .build(),
                  WatermarkStrategy.noWatermarks(),
                  "numbers")
              .uid("numbers")
              .map(new CountingQuery.FailOnce())
              .uid("fail-once");
      numbers
          .sinkTo(
              DeltaSinkBuilder.forTable(
                      delta, SCHEMA, (Long row) -> new Object[] {row, row % CountingQuery.KEYS})
                  .query(query)
                  .sinkName("rows-delta")
                  .build())
          .uid("rows-delta");
      numbers
          .keyBy(row -> row % CountingQuery.KEYS)
          .process(new CountingQuery.RunningCount())
          .uid("running-count")
          .sinkTo(
              JsonLinesFileSink.create(
                  counts,
                  line -> line,
                  new CommitRecordListener(query, "counts", "counts " + counts)))
          .uid("counts");
    };
  }

  private StreamingQuery start(long rows, String restoreFrom) throws Exception {
    return start(rows, restoreFrom, 100);
  }

  private StreamingQuery start(long rows, String restoreFrom, long maxRowsPerTrigger)
      throws Exception {
    return StreamingQueryBuilder.of(dataflow(rows, maxRowsPerTrigger))
        .queryName("rewind")
        .checkpointLocation(dir.resolve("chk").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .restoreFrom(restoreFrom)
        .start();
  }

  private RestorableSnapshot newestSnapshot() throws Exception {
    return new CheckpointLocation(dir.resolve("chk").toUri()).newestSnapshot().orElseThrow();
  }

  private List<Long> deltaIds() throws Exception {
    List<Long> ids = new java.util.ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(dir.resolve("delta").toUri().toString()))
            .readLatest()) {
      ids.add((Long) row[0]);
    }
    ids.sort(null);
    return ids;
  }

  private static List<Long> range(long n) {
    return LongStream.range(0, n).boxed().toList();
  }

  @Test
  void restoringAnOlderSavepointReplaysCommittedEpochsAndLandsEveryRowOnce() throws Exception {
    start(300, null).awaitTermination();
    RestorableSnapshot older = newestSnapshot();
    start(600, null).awaitTermination();
    RestorableSnapshot newer = newestSnapshot();
    assertThat(newer.checkpointId()).isGreaterThan(older.checkpointId() + 1);
    assertThat(deltaIds()).containsExactlyElementsOf(range(600));

    // A new rate limit would cut the replayed epochs differently: the replay must ignore it.
    StreamingQuery rewound = start(900, older.path(), 70);
    rewound.awaitTermination();

    assertThat(deltaIds()).as("Delta rows after the rewind").containsExactlyElementsOf(range(900));
    CountingQuery.assertExactlyOnce(dir.resolve("counts"), 900);
    assertThat(Files.exists(Path.of(java.net.URI.create(newer.path()))))
        .as("the abandoned run's savepoint left savepoints/")
        .isFalse();
    try (Stream<Path> abandoned = Files.list(dir.resolve("chk/abandoned"))) {
      assertThat(abandoned).hasSize(1);
    }
    // a plain restart continues the rewound lineage, not the retired savepoint
    start(1000, null).awaitTermination();
    assertThat(deltaIds()).containsExactlyElementsOf(range(1000));
    CountingQuery.assertExactlyOnce(dir.resolve("counts"), 1000);
    assertOneVersionPerEpoch(rewound.appId());
  }

  /** Each epoch of the query is one version of the Delta table, the replayed ones too. */
  private void assertOneVersionPerEpoch(String appId) {
    DeltaLogTxns.read(dir.resolve("delta"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(appId, dir.resolve("chk"), "rows-delta");
  }

  @Test
  void aFailedRunIsResumedFromItsRetainedCheckpoint() throws Exception {
    CountingQuery.failAtRow = 450;
    Configuration noRestarts = new Configuration();
    noRestarts.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamingQuery failed =
        StreamingQueryBuilder.of(dataflow(900, 100))
            .queryName("rewind")
            .checkpointLocation(dir.resolve("chk").toString())
            .trigger(Trigger.availableNow())
            .parallelism(2)
            .flinkConfiguration(noRestarts)
            .start();
    assertThatThrownBy(failed::awaitTermination).hasMessageContaining("injected task failure");
    assertThat(newestSnapshot().kind()).isEqualTo(RestorableSnapshot.Kind.CHECKPOINT);
    assertThat(deltaIds().size()).isLessThan(900);

    start(900, null).awaitTermination();

    assertThat(deltaIds()).containsExactlyElementsOf(range(900));
    CountingQuery.assertExactlyOnce(dir.resolve("counts"), 900);
    assertOneVersionPerEpoch(failed.appId());
  }

  @Test
  void aRewindWhosePositionsAreNoLongerRecordedIsRefused() throws Exception {
    start(200, null).awaitTermination();
    RestorableSnapshot older = newestSnapshot();
    start(400, null).awaitTermination();
    Path offsets = dir.resolve("chk/offsets");
    long last = newestSnapshot().checkpointId();
    try (Stream<Path> files = Files.walk(offsets.resolve(Long.toString(last)))) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }

    assertThatThrownBy(() -> start(600, older.path()))
        .isInstanceOf(ReplayNotPossibleException.class)
        .hasMessageContaining("Cannot restore epoch " + older.checkpointId() + " exactly once")
        .hasMessageContaining("Restore the newest snapshot instead")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("REPLAY_NOT_POSSIBLE");
    assertThat(deltaIds()).containsExactlyElementsOf(range(400));
  }
}
