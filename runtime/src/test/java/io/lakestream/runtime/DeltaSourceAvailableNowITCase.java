package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.IncompatibleRestartException;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Delta-to-Delta query with the availableNow trigger: each run reads the versions committed
 * before it started, in epochs of at most maxFilesPerTrigger files, then stops by itself; the next
 * run continues where the last one stopped.
 */
class DeltaSourceAvailableNowITCase {
  private static final long ROWS_PER_VERSION = 50;
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .build();

  @TempDir Path dir;

  private DeltaTable source;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  private void appendVersions(int from, int to) throws IOException {
    for (int v = from; v <= to; v++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = (v - 1) * ROWS_PER_VERSION; id < v * ROWS_PER_VERSION; id++) {
        rows.add(new Object[] {id, "row-" + id});
      }
      commit.commit(v, writer.write(rows)); // one file per version
    }
  }

  private StreamingQuery start() throws Exception {
    return start(null);
  }

  private StreamingQuery start(String restoreFrom) throws Exception {
    String out = dir.resolve("out").toUri().toString();
    Dataflow dataflow =
        (env, query) ->
            env.fromSource(
                    DeltaSourceBuilder.forTable(source.path())
                        .name("delta-in")
                        .options(Map.of("maxFilesPerTrigger", "2", "pollInterval", "100ms"))
                        .query(query)
                        .build(),
                    WatermarkStrategy.noWatermarks(),
                    "delta-in")
                .uid("delta-in")
                .sinkTo(
                    DeltaSinkBuilder.<Row>forTable(
                            out, SCHEMA, r -> new Object[] {r.getField(0), r.getField(1)})
                        .query(query)
                        .sinkName("delta-out")
                        .build())
                .uid("delta-out");
    return StreamingQueryBuilder.of(dataflow)
        .queryName("delta-copy")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .restoreFrom(restoreFrom)
        .start();
  }

  private List<Long> outIds() throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(dir.resolve("out").toUri().toString()))
        .readLatest().stream().map(r -> (Long) r[0]).sorted().collect(Collectors.toList());
  }

  private static List<QueryProgress> withInput(StreamingQuery q) {
    return q.recentProgress().stream().filter(p -> p.numInputRows() > 0).toList();
  }

  @Test
  void eachRunDrainsTheVersionsCommittedBeforeItInBoundedEpochsAndStops() throws Exception {
    source = DeltaTable.forPath(dir.resolve("in").toUri().toString());
    writer = new DeltaTableWriter(source, SCHEMA);
    commit = new DeltaAppendCommit(source, SCHEMA, "producer");
    commit.open();
    appendVersions(1, 5);

    StreamingQuery first = start();
    first.awaitTermination();
    String firstSavepoint =
        new CheckpointLocation(dir.resolve("checkpoint").toUri())
            .newestSnapshot()
            .orElseThrow()
            .path();
    assertThat(outIds()).isEqualTo(LongStream.range(0, 250).boxed().toList());
    assertThat(withInput(first)).hasSizeGreaterThanOrEqualTo(3);
    assertThat(withInput(first))
        .allSatisfy(p -> assertThat(p.numInputRows()).isLessThanOrEqualTo(2 * ROWS_PER_VERSION))
        .allSatisfy(p -> assertThat(p.numInputRows()).isEqualTo(p.numOutputRows()));

    appendVersions(6, 8);
    StreamingQuery second = start();
    second.awaitTermination();
    assertThat(outIds()).isEqualTo(LongStream.range(0, 400).boxed().toList());
    assertThat(withInput(second).stream().mapToLong(QueryProgress::numInputRows).sum())
        .isEqualTo(150);

    StreamingQuery third = start();
    third.awaitTermination();
    assertThat(withInput(third)).as("no new versions: nothing read").isEmpty();
    assertThat(outIds()).hasSize(400);
    DeltaLogTxns.read(dir.resolve("out"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(third.appId(), dir.resolve("checkpoint"), "delta-out");

    // Rolling back to the first run's savepoint would replay committed epochs, which this source
    // cannot do exactly: refused before anything runs.
    assertThatThrownBy(() -> start(firstSavepoint))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("cannot replay them exactly as committed")
        .hasMessageContaining("[delta-in]")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
    assertThat(outIds()).hasSize(400);
  }
}
