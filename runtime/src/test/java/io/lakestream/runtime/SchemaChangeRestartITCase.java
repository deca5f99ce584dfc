package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.SchemaChangeFailure;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.testkit.logging.CapturedLogs;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guards of the restart on schema change, on real jobs whose first row always fails with a
 * recorded schema change (as Auto Loader's would if the rebuilt query ignored the recorded schema):
 * a run that fails for the same columns again before committing an epoch is not restarted a second
 * time, and no more than {@code maxPerHour} restarts happen within an hour. Both end the query with
 * {@code QUERY_SCHEMA_CHANGE_RESTART_REFUSED}, never a silent loop.
 */
class SchemaChangeRestartITCase {
  @TempDir Path dir;

  /** A schema change a rebuilt query cannot get past: the test's stand-in for a broken source. */
  static final class StubbornSchemaChange extends RuntimeException implements SchemaChangeFailure {
    private final List<String> columns;

    StubbornSchemaChange(List<String> columns) {
      super("new columns " + columns + " (recorded)");
      this.columns = List.copyOf(columns);
    }

    @Override
    public List<String> changedColumns() {
      return columns;
    }

    @Override
    public boolean recorded() {
      return true;
    }
  }

  /** Runs started so far; each run's failure names column {@code c<run>} unless {@code same}. */
  static final AtomicInteger RUNS = new AtomicInteger();

  private static final class FailWithSchemaChange implements MapFunction<Long, String> {
    private final boolean sameColumns;
    private final int run = RUNS.incrementAndGet();

    FailWithSchemaChange(boolean sameColumns) {
      this.sameColumns = sameColumns;
    }

    @Override
    public String map(Long row) {
      List<String> columns = List.of(sameColumns ? "amount" : "c" + run);
      throw new SuppressRestartsException(new StubbornSchemaChange(columns));
    }
  }

  private StreamingQuery start(boolean sameColumns, SchemaChangeRestarts restarts)
      throws Exception {
    String table = dir.resolve("table").toUri().toString();
    Dataflow dataflow =
        (env, query) ->
            env.fromSource(
                    RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                        .rows(10)
                        .query(query)
                        .build(),
                    WatermarkStrategy.noWatermarks(),
                    "numbers")
                .uid("numbers")
                .map(new FailWithSchemaChange(sameColumns))
                .uid("fail")
                .sinkTo(
                    JsonLinesFileSink.create(
                        table, line -> line, new CommitRecordListener(query, "out", "out")))
                .uid("out");
    return StreamingQueryBuilder.of(dataflow)
        .queryName("schema-restarts")
        .checkpointLocation(dir.resolve("checkpoint").toString())
        .trigger(Trigger.availableNow())
        .restartOnSchemaChange(restarts)
        .start();
  }

  @Test
  void aRebuiltRunFailingForTheSameColumnsBeforeAnyEpochIsNotRestartedAgain() throws Exception {
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = start(true, SchemaChangeRestarts.defaults());
      assertThatThrownBy(query::awaitTermination)
          .isInstanceOf(StreamingQueryException.class)
          .hasStackTraceContaining("failed for the same columns again before committing an epoch")
          .extracting(e -> ((StreamingQueryException) e).errorClass())
          .isEqualTo("QUERY_SCHEMA_CHANGE_RESTART_REFUSED");
      assertThat(logs.lines()).filteredOn(l -> l.contains("is rebuilt and restarted")).hasSize(1);
    }
  }

  @Test
  void noMoreThanMaxPerHourRestartsHappen() throws Exception {
    try (CapturedLogs logs = CapturedLogs.of("io.lakestream.runtime")) {
      StreamingQuery query = start(false, new SchemaChangeRestarts(true, 2));
      assertThatThrownBy(query::awaitTermination)
          .hasStackTraceContaining("restarted 2 times for schema changes within the last hour")
          .hasStackTraceContaining("--max-schema-restarts-per-hour")
          .extracting(e -> ((StreamingQueryException) e).errorClass())
          .isEqualTo("QUERY_SCHEMA_CHANGE_RESTART_REFUSED");
      assertThat(logs.lines()).filteredOn(l -> l.contains("is rebuilt and restarted")).hasSize(2);
    }
  }

  @Test
  void turnedOffTheSchemaChangeEndsTheQuery() throws Exception {
    StreamingQuery query = start(true, SchemaChangeRestarts.off());
    assertThatThrownBy(query::awaitTermination)
        .isInstanceOf(StreamingQueryException.class)
        .hasStackTraceContaining(StubbornSchemaChange.class.getName())
        .hasStackTraceContaining("new columns [amount]");
  }
}
