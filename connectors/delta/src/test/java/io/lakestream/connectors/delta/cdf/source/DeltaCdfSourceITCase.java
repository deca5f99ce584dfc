package io.lakestream.connectors.delta.cdf.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.KernelChangeCommits;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming change data feed source on the MiniCluster: an availableNow run stopped mid-stream
 * with a savepoint (as the runner stops availableNow runs), then a second availableNow run restored
 * from it. Across both runs every change row (inserts of appends, deletes of a removed file; the
 * compaction contributes none) arrives exactly once, equal to the batch {@code tableChanges}. And a
 * task failure mid-stream: the job restores from its last checkpoint and an exactly-once Delta sink
 * ends with every change row once, also when the failure falls in the initial snapshot of a stream
 * without startingVersion.
 */
class DeltaCdfSourceITCase {
  private static final Duration WAIT = Duration.ofSeconds(120);

  @RegisterExtension
  static final FlinkMiniClusterExtension FLINK =
      new FlinkMiniClusterExtension(
          () ->
              FlinkMiniCluster.builder()
                  .slotsPerTaskManager(2)
                  .checkpointInterval(Duration.ofMillis(500))
                  // the failure test restores from the last checkpoint
                  .set("restart-strategy.type", "fixed-delay")
                  .set("restart-strategy.fixed-delay.attempts", "3")
                  .set("restart-strategy.fixed-delay.delay", "100 ms"));

  static final Queue<String> RUN_1 = new ConcurrentLinkedQueue<>();
  static final Queue<String> RUN_2 = new ConcurrentLinkedQueue<>();

  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;

  private QueryContext query(String run) {
    return new QueryContext(
        "qid",
        "cdf",
        run,
        "cdf-qid",
        dir.resolve("chk").toUri().toString(),
        true,
        false,
        OutputMode.APPEND);
  }

  @Test
  void availableNowStopAndRestoreDeliversEveryChangeRowOnce() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "w");
    commit.open();
    for (int epoch = 1; epoch <= 4; epoch++) {
      commit.commit(epoch, writer.write(rows((epoch - 1) * 1_000L, epoch * 1_000L)));
    }
    long deleted = KernelChangeCommits.deleteOneFile(table);
    KernelChangeCommits.compact(table, SCHEMA);
    long firstRunEnd = new DeltaTableReader(table).latestVersion();
    List<String> expectedFirst = describe(DeltaChangeDataFeed.tableChanges(table, 1, firstRunEnd));
    assertThat(expectedFirst.stream().filter(r -> r.contains("|delete|" + deleted + "|")))
        .isNotEmpty();

    EpochLog log = new CheckpointLocation(dir.resolve("chk").toUri()).epochs();
    QueryContext run1 = query("run-1");
    JobID job1 = FLINK.submit(pipeline(table, run1, RUN_1));
    await(() -> RUN_1.size() >= 1_000, "the first change rows");
    String savepoint =
        FLINK
            .cluster()
            .miniCluster()
            .stopWithSavepoint(
                job1, dir.resolve("sp").toUri().toString(), false, SavepointFormatType.CANONICAL)
            .get();
    FLINK.cluster().waitForSuccess(job1, WAIT);
    assertThat(RUN_1.size()).as("stopped mid-stream").isLessThan(expectedFirst.size());

    // a version committed between the runs is read by the second run
    commit.commit(5, writer.write(rows(10_000, 10_300)));
    long last = new DeltaTableReader(table).latestVersion();
    List<String> expected = describe(DeltaChangeDataFeed.tableChanges(table, 1, last));
    assertThat(expected).hasSize(expectedFirst.size() + 300);

    QueryContext run2 = query("run-2");
    JobID job2 = FLINK.submit(pipeline(table, run2, RUN_2), URI.create(savepoint));
    try {
      await(() -> caughtUp(log, run2), "the second run to catch up");
      long n = FLINK.cluster().completedCheckpoints(job2);
      FLINK.cluster().waitForCompletedCheckpoints(job2, (int) n + 2, WAIT);
    } finally {
      FLINK.cluster().cancel(job2, WAIT);
    }
    List<String> all = new ArrayList<>(RUN_1);
    all.addAll(RUN_2);
    all.sort(null);
    assertThat(all).isEqualTo(expected);
  }

  @Test
  void aTaskFailureMidStreamLosesAndRepeatsNoChangeRow() throws Exception {
    DeltaTable table = sourceTable("src");
    long last = new DeltaTableReader(table).latestVersion();
    List<String> expected = describe(DeltaChangeDataFeed.tableChanges(table, 1, last));

    List<String> copied =
        copyWithOneFailure(table, "1", Map.of("startingVersion", "1"), () -> {}, expected::size);

    assertThat(copied).isEqualTo(expected);
  }

  /**
   * Without startingVersion the stream begins with the latest snapshot as inserts of its version
   * (here four files over four epochs); a failure within it, and a version committed after it,
   * still give every row once.
   */
  @Test
  void aTaskFailureInTheInitialSnapshotLosesAndRepeatsNoRow() throws Exception {
    DeltaTable table = sourceTable("snapshot-src");
    long last = new DeltaTableReader(table).latestVersion();
    Object stamp = DeltaChangeDataFeed.tableChanges(table, last, last).get(0)[5];
    List<String> expected = new ArrayList<>();
    for (Object[] r : new DeltaTableReader(table).readLatest()) {
      expected.add(describe(new Object[] {r[0], r[1], r[2], "insert", last, stamp}));
    }
    assertThat(expected).hasSize(3_500);

    List<String> copied =
        copyWithOneFailure(
            table,
            "2",
            Map.of(),
            () -> {
              DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "w");
              commit.open();
              commit.commit(5, new DeltaTableWriter(table, SCHEMA).write(rows(5_000, 5_400)));
              expected.addAll(
                  describe(DeltaChangeDataFeed.tableChanges(table, last + 1, last + 1)));
              expected.sort(null);
            },
            expected::size);

    assertThat(FAILED_AT_VERSION.get()).as("the failure fell in the snapshot").isEqualTo(last);
    assertThat(copied).hasSize(3_900).isEqualTo(expected);
  }

  /**
   * Versions 1-3 append 1,000 rows each (two partitions, so two files each), version 4 deletes one
   * file, version 5 compacts, version 6 appends 1,000 more: 3,500 rows in four files.
   */
  private DeltaTable sourceTable(String name) throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve(name).toUri().toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "w");
    commit.open();
    for (int epoch = 1; epoch <= 3; epoch++) {
      commit.commit(epoch, writer.write(rows((epoch - 1) * 1_000L, epoch * 1_000L)));
    }
    KernelChangeCommits.deleteOneFile(table);
    KernelChangeCommits.compact(table, SCHEMA);
    commit.commit(4, writer.write(rows(3_000, 4_000)));
    return table;
  }

  interface TableChange {
    void run() throws Exception;
  }

  /**
   * Copies the change feed of {@code table} into a Delta table with an exactly-once sink, failing
   * the task once mid-stream ({@link FailOnceMidStream}); runs {@code afterFailure} once the
   * failure happened, waits for {@code expectedRows} rows and two more checkpoints (duplicates
   * would land), and returns the copied rows, sorted.
   */
  private List<String> copyWithOneFailure(
      DeltaTable table,
      String id,
      Map<String, String> startOption,
      TableChange afterFailure,
      IntSupplier expectedRows)
      throws Exception {
    FAILED.set(false);
    SEEN.set(0);
    CHECKPOINTS.set(0);
    QueryContext query =
        new QueryContext(
            "qid-copy-" + id,
            "cdf-copy",
            "run-1",
            "cdf-copy-qid-" + id,
            dir.resolve("chk-copy-" + id).toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    Map<String, String> options = new HashMap<>(startOption);
    options.put("maxFilesPerTrigger", "1");
    options.put("pollInterval", "50ms");
    String outPath = dir.resolve("out-" + id).toUri().toString();
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(2);
    env.fromSource(
            DeltaCdfSourceBuilder.forTable(table.path())
                .name("cdf-src")
                .options(options)
                .query(query)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "cdf-src")
        .uid("cdf-src")
        .map(new FailOnceMidStream())
        .uid("fail-once")
        .sinkTo(
            DeltaSinkBuilder.<Row>forTable(
                    outPath,
                    OUT,
                    r ->
                        new Object[] {
                          r.getField(0),
                          r.getField(1),
                          r.getField(2),
                          r.getField(3),
                          r.getField(4),
                          r.getField(5)
                        })
                .query(query)
                .sinkName("out")
                .build())
        .uid("out");
    JobID job = FLINK.submit(env);
    DeltaTableReader out = new DeltaTableReader(DeltaTable.forPath(outPath));
    try {
      await(FAILED::get, "the injected failure");
      afterFailure.run();
      await(
          () -> count(out) >= expectedRows.getAsInt() || failed(job),
          "every change row in the output table");
      long n = FLINK.cluster().completedCheckpoints(job);
      FLINK.cluster().waitForCompletedCheckpoints(job, (int) n + 2, WAIT); // duplicates would land
    } finally {
      if (failed(job)) {
        throw new AssertionError("job failed: " + failure(job));
      }
      FLINK.cluster().cancel(job, WAIT);
    }
    return describe(out.readLatest());
  }

  static final DeltaTableSchema OUT =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("part", ColumnType.STRING)
          .column("_change_type", ColumnType.STRING)
          .column("_commit_version", ColumnType.LONG)
          .column("_commit_timestamp", ColumnType.TIMESTAMP)
          .build();

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicInteger CHECKPOINTS = new AtomicInteger();
  static final AtomicLong SEEN = new AtomicLong();

  /** The {@code _commit_version} of the row at which the failure was injected. */
  static final AtomicLong FAILED_AT_VERSION = new AtomicLong(-1);

  private static boolean failed(JobID job) {
    return FLINK.cluster().status(job).isGloballyTerminalState();
  }

  private static String failure(JobID job) {
    try {
      return FLINK
          .cluster()
          .miniCluster()
          .requestJobResult(job)
          .get()
          .getSerializedThrowable()
          .map(t -> t.getFullStringifiedStackTrace())
          .orElse("none");
    } catch (Exception e) {
      return e.toString();
    }
  }

  private static long count(DeltaTableReader reader) {
    try {
      return reader.table().latestSnapshot().isPresent() ? reader.count() : 0;
    } catch (DeltaTableException e) {
      return 0;
    }
  }

  /** Fails once, mid-stream, after two checkpoints completed and some rows went through. */
  static final class FailOnceMidStream implements MapFunction<Row, Row>, CheckpointListener {
    @Override
    public Row map(Row row) {
      if (SEEN.incrementAndGet() > 1_200
          && CHECKPOINTS.get() >= 2
          && FAILED.compareAndSet(false, true)) {
        FAILED_AT_VERSION.set((Long) row.getField(4));
        throw new IllegalStateException("injected failure at change row " + row);
      }
      return row;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      CHECKPOINTS.incrementAndGet();
    }
  }

  private StreamExecutionEnvironment pipeline(
      DeltaTable table, QueryContext query, Queue<String> into) {
    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(2);
    env.fromSource(
            DeltaCdfSourceBuilder.forTable(table.path())
                .name("cdf-src")
                .options(
                    Map.of(
                        "startingVersion", "1", "maxFilesPerTrigger", "1", "pollInterval", "50ms"))
                .query(query)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "cdf-src")
        .uid("cdf-src")
        .sinkTo(new CollectingSink(into == RUN_1 ? 1 : 2))
        .uid("collect");
    return env;
  }

  private static List<Object[]> rows(long from, long to) {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, "row-" + id, "p" + (id % 2)});
    }
    return rows;
  }

  private static List<String> describe(List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    for (Object[] r : rows) {
      out.add(describe(r));
    }
    out.sort(null);
    return out;
  }

  private static String describe(Object[] r) {
    assertThat(r[5]).isInstanceOf(Instant.class);
    return r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4] + "|" + r[5];
  }

  static boolean caughtUp(EpochLog log, QueryContext query) {
    try {
      return log.caughtUpSources(query.runId()).contains("cdf-src");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  /** Collects rows (as strings) into RUN_1 or RUN_2. */
  static final class CollectingSink implements Sink<Row> {
    private static final long serialVersionUID = 1L;
    private final int run;

    CollectingSink(int run) {
      this.run = run;
    }

    @Override
    public SinkWriter<Row> createWriter(WriterInitContext context) {
      return writer();
    }

    @Override
    @Deprecated
    public SinkWriter<Row> createWriter(InitContext context) {
      return writer();
    }

    private SinkWriter<Row> writer() {
      Queue<String> into = run == 1 ? RUN_1 : RUN_2;
      return new SinkWriter<>() {
        @Override
        public void write(Row row, Context context) {
          Object[] values = new Object[row.getArity()];
          for (int i = 0; i < values.length; i++) {
            values[i] = row.getField(i);
          }
          into.add(describe(values));
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
