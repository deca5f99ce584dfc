package io.lakestream.connectors.delta.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.KernelChangeCommits;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.CompletedCheckpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The Delta source on real tables in a Flink MiniCluster. */
class DeltaSourceITCase {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  static final Queue<Row> COLLECTED = new ConcurrentLinkedQueue<>();

  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("label", ColumnType.STRING)
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .build();

  @TempDir Path dir;
  private DeltaTable table;
  private DeltaTableWriter writer;
  private DeltaAppendCommit commit;

  @BeforeEach
  void setUp() throws IOException {
    COLLECTED.clear();
    table = DeltaTable.forPath(dir.resolve("table").toUri().toString());
    writer = new DeltaTableWriter(table, SCHEMA);
    commit = new DeltaAppendCommit(table, SCHEMA, "writer");
    commit.open();
  }

  /** Commits ids [from, to) with the given partition per id; returns the table version. */
  long append(long epoch, long from, long to, LongFunction<String> part) throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(new Object[] {id, "row-" + id, part.apply(id)});
    }
    String detail = commit.commit(epoch, writer.write(rows)).detail();
    return Long.parseLong(detail.substring("version=".length()));
  }

  static StreamExecutionEnvironment env(long checkpointMillis) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(checkpointMillis));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    return env;
  }

  QueryContext query(boolean availableNow) {
    return new QueryContext(
        "qid",
        "delta-src",
        "run-1",
        "delta-src-qid",
        dir.resolve("chk").toUri().toString(),
        availableNow,
        false,
        OutputMode.APPEND);
  }

  DeltaSourceBuilder source(Map<String, String> options) {
    return DeltaSourceBuilder.forTable(table.path())
        .name("delta-src")
        .option("pollInterval", "100ms")
        .options(options);
  }

  /** Name of the checkpoints the jobs of {@link #collect} report. */
  static final String CHECKPOINTS = "delta-source-it";

  /** Waits for a few more completed checkpoints: the source polled the table again meanwhile. */
  static void awaitMoreCheckpoints() throws InterruptedException {
    CompletedCheckpoints.awaitMore(CHECKPOINTS, 3, Duration.ofSeconds(60));
  }

  JobClient collect(StreamExecutionEnvironment env, DeltaSource source) throws Exception {
    DataStream<Row> rows =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "delta-src").uid("delta-src");
    rows.map(new CompletedCheckpoints<>(CHECKPOINTS), rows.getType())
        .uid("checkpoints")
        .sinkTo(new CollectingSink())
        .uid("collect");
    return env.executeAsync("delta-source-it");
  }

  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  static List<Long> collectedIds() {
    return COLLECTED.stream().map(r -> (Long) r.getField(0)).sorted().collect(Collectors.toList());
  }

  static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().collect(Collectors.toList());
  }

  @Test
  void streamsTheSnapshotThenEveryVersionCommittedWhileRunning() throws Exception {
    append(1, 0, 100, id -> "p" + (id % 2));
    append(2, 100, 150, id -> "p" + (id % 2));
    JobClient job = collect(env(200), source(Map.of()).build());
    await(() -> COLLECTED.size() >= 150, "the initial snapshot");
    append(3, 150, 300, id -> "p" + (id % 3));
    append(4, 300, 310, id -> "p9");
    await(() -> COLLECTED.size() >= 310, "rows of versions committed while running");
    awaitMoreCheckpoints(); // a duplicate, if any, would have arrived by then
    job.cancel().get();

    assertThat(collectedIds()).isEqualTo(range(0, 310));
    for (Row row : COLLECTED) {
      long id = (Long) row.getField(0);
      assertThat(row.getField(1)).isEqualTo("row-" + id);
      String part = id < 150 ? "p" + (id % 2) : id < 300 ? "p" + (id % 3) : "p9";
      assertThat(row.getField(2)).as("partition value of %d", id).isEqualTo(part);
    }
  }

  @Test
  void maxFilesPerTriggerBoundsTheFilesOfEachEpoch() throws Exception {
    for (int v = 1; v <= 12; v++) {
      append(v, v * 10L, v * 10L + 10, id -> "p"); // one file per version
    }
    DeltaSource source =
        source(Map.of("startingVersion", "1", "maxFilesPerTrigger", "2"))
            .query(query(false))
            .build();
    JobClient job = collect(env(150), source);
    await(() -> COLLECTED.size() >= 120, "all rows");
    awaitMoreCheckpoints();
    job.cancel().get();
    assertThat(collectedIds()).isEqualTo(range(10, 130));

    // offsets/N/delta-src: the next version to admit after each epoch (one file per version)
    EpochLog log = new CheckpointLocation(dir.resolve("chk").toUri()).epochs();
    List<Long> versions = new ArrayList<>();
    List<Long> epochs = log.offsetEpochs();
    for (long epoch : epochs) {
      JsonNode record = log.readOffsets(epoch).get("delta-src");
      if (record == null && epoch == epochs.get(epochs.size() - 1)) {
        continue; // the cancelled job's last record: its directory made, the file not yet moved in
      }
      assertThat(record).as("offsets/%d/delta-src", epoch).isNotNull();
      JsonNode offsets = record.get("offsets");
      assertThat(offsets.get("isStartingVersion").asLong()).isZero();
      long next = offsets.get("reservoirVersion").asLong();
      versions.add(offsets.get("index").asLong() == 0 ? next : next + 1);
    }
    assertThat(versions).hasSizeGreaterThanOrEqualTo(6);
    List<Long> perEpoch = new ArrayList<>();
    for (int i = 1; i < versions.size(); i++) {
      perEpoch.add(versions.get(i) - versions.get(i - 1));
    }
    assertThat(perEpoch).allSatisfy(files -> assertThat(files).isBetween(0L, 2L)).contains(2L);
    assertThat(versions.get(versions.size() - 1)).isEqualTo(13);
    // totalOffset counts the rows admitted (from file statistics): progress derives input rows
    assertThat(lastOffsets(log).get("totalOffset").asLong()).isEqualTo(120);
  }

  @Test
  void aChangeCommitFailsTheQueryNamingTheVersionAndTheOption() throws Exception {
    append(1, 0, 20, id -> "p" + (id % 2));
    long deleted = KernelChangeCommits.deleteOneFile(table);
    append(2, 20, 30, id -> "p");

    StreamExecutionEnvironment env = env(200);
    env.fromSource(
            source(Map.of("startingVersion", "1")).build(),
            WatermarkStrategy.noWatermarks(),
            "delta-src")
        .sinkTo(new CollectingSink());
    assertThatThrownBy(env::execute)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("Version " + deleted + " of the Delta table at " + table.path())
                    .contains("removes or changes existing data")
                    .contains("skipChangeCommits=true")
                    .contains("startingVersion " + (deleted + 1)));
    // the versions before it were delivered first
    assertThat(collectedIds()).isEqualTo(range(0, 20));
  }

  @Test
  void skipChangeCommitsSkipsThemAndCompactionIsSkippedSilently() throws Exception {
    append(1, 0, 20, id -> "p" + (id % 2));
    KernelChangeCommits.deleteOneFile(table);
    append(2, 20, 30, id -> "p");
    KernelChangeCommits.compact(table, SCHEMA);
    append(3, 30, 35, id -> "p");

    JobClient job =
        collect(
            env(200), source(Map.of("startingVersion", "1", "skipChangeCommits", "true")).build());
    await(() -> COLLECTED.size() >= 35, "all appended rows");
    awaitMoreCheckpoints();
    job.cancel().get();
    assertThat(collectedIds()).isEqualTo(range(0, 35));
  }

  @Test
  void availableNowReadsUpToTheVersionCurrentAtStartThenSignalsCaughtUp() throws Exception {
    for (int v = 1; v <= 5; v++) {
      append(v, v * 100L, v * 100L + 100, id -> "p" + (id % 2));
    }
    QueryContext query = query(true);
    EpochLog log = new CheckpointLocation(dir.resolve("chk").toUri()).epochs();
    JobClient job =
        collect(env(150), source(Map.of("maxFilesPerTrigger", "3")).query(query).build());
    await(() -> caughtUp(log, query), "the caught-up signal");
    assertThat(collectedIds()).isEqualTo(range(100, 600));
    append(6, 600, 610, id -> "p"); // after the run's end: not read in this run
    awaitMoreCheckpoints(); // the source polled the table again: still not read
    job.cancel().get();
    assertThat(collectedIds()).isEqualTo(range(100, 600));
    assertThat(lastOffsets(log).get("endOffsets").get("reservoirVersion")).hasToString("5");
  }

  /**
   * The source's newest offsets record. A cancelled job may leave the newest epoch's directory
   * without its record (made, the file not yet moved in): then the one before.
   */
  private static JsonNode lastOffsets(EpochLog log) throws IOException {
    List<Long> epochs = log.offsetEpochs();
    for (int i = epochs.size() - 1; i >= Math.max(0, epochs.size() - 2); i--) {
      JsonNode record = log.readOffsets(epochs.get(i)).get("delta-src");
      if (record != null) {
        return record;
      }
    }
    throw new AssertionError("no offsets record of delta-src in the last two epochs " + epochs);
  }

  static boolean caughtUp(EpochLog log, QueryContext query) {
    try {
      return log.caughtUpSources(query.runId()).contains("delta-src");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void boundedReadsOfAVersionAndOfATimestamp() throws Exception {
    append(1, 0, 10, id -> "p" + (id % 2));
    long v2 = append(2, 10, 25, id -> "p");
    append(3, 25, 40, id -> "q");
    DeltaTableReader reader = new DeltaTableReader(table);
    Instant v2Time =
        Instant.ofEpochMilli(reader.snapshotAtVersion(v2).getTimestamp(table.engine()));

    assertThat(readBounded(Map.of("versionAsOf", "1"))).isEqualTo(range(0, 10));
    assertThat(readBounded(Map.of("timestampAsOf", v2Time.toString()))).isEqualTo(range(0, 25));
    assertThat(reader.versionAsOf(v2Time)).isEqualTo(v2);
    assertThat(readBounded(Map.of("versionAsOf", "0"))).isEmpty();

    assertThatThrownBy(() -> source(Map.of("timestampAsOf", "2001-01-01T00:00:00Z")).build())
        .isInstanceOf(DeltaTableException.class)
        .hasMessageContaining("No version of the Delta table at " + table.path())
        .hasMessageContaining("2001-01-01T00:00:00Z")
        .hasMessageContaining("(version 0)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
    assertThatThrownBy(() -> source(Map.of("versionAsOf", "9")).build())
        .hasMessageContaining("available versions are 0 to 3")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_VERSION_NOT_FOUND");
  }

  @Test
  void aBoundedReadOfChosenColumnsReadsOnlyTheFilesTheFilterMayMatch() throws Exception {
    append(1, 0, 10, id -> "p");
    append(2, 10, 25, id -> "q");
    append(3, 25, 40, id -> "q");
    DeltaSource source =
        source(Map.of("versionAsOf", "3"))
            .columns("label", "id")
            .filter(
                DeltaFilter.and(
                    DeltaFilter.equalTo("part", "q"), DeltaFilter.greaterThanOrEqual("id", 25L)))
            .build();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it =
        env(10_000)
            .fromSource(source, WatermarkStrategy.noWatermarks(), "bounded")
            .executeAndCollect()) {
      it.forEachRemaining(rows::add);
    }
    // version 3's file only: the filter is on files, not rows
    assertThat(rows)
        .extracting(r -> r.getArity() + ":" + r.getField(0) + ":" + r.getField(1))
        .containsExactlyInAnyOrderElementsOf(
            range(25, 40).stream().map(id -> "2:row-" + id + ":" + id).toList());
  }

  @Test
  void startingTimestampReadsFromTheFirstVersionCommittedAtOrAfterIt() throws Exception {
    append(1, 0, 10, id -> "p");
    long v2 = append(2, 10, 25, id -> "p");
    append(3, 25, 40, id -> "q");
    DeltaTableReader reader = new DeltaTableReader(table);
    Instant v1Time = commitTime(reader, v2 - 1);
    Instant v2Time = commitTime(reader, v2);
    Instant v3Time = commitTime(reader, v2 + 1);
    assertThat(reader.firstVersionAtOrAfter(v2Time, "t")).isEqualTo(v2);
    assertThat(reader.firstVersionAtOrAfter(v1Time.plusMillis(1), "t"))
        .as("between two commits: the later one")
        .isEqualTo(v1Time.plusMillis(1).isAfter(v2Time) ? v2 + 1 : v2);
    assertThat(reader.firstVersionAtOrAfter(Instant.parse("2001-01-01T00:00:00Z"), "t"))
        .as("before every commit: the earliest")
        .isZero();
    assertThatThrownBy(
            () -> source(Map.of("startingTimestamp", v3Time.plusSeconds(60).toString())).build())
        .hasMessageContainingAll("startingTimestamp", "after the latest commit", "'latest'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_VERSION_RANGE");

    JobClient job =
        collect(env(150), source(Map.of("startingTimestamp", v2Time.toString())).build());
    await(() -> COLLECTED.size() >= 30, "the rows of versions 2 and 3");
    awaitMoreCheckpoints();
    job.cancel().get();
    assertThat(collectedIds())
        .as("no initial snapshot: from version 2 on")
        .isEqualTo(range(10, 40));
  }

  private Instant commitTime(DeltaTableReader reader, long version) {
    return Instant.ofEpochMilli(reader.snapshotAtVersion(version).getTimestamp(table.engine()));
  }

  private List<Long> readBounded(Map<String, String> options) throws Exception {
    StreamExecutionEnvironment env = env(10_000);
    List<Long> ids = new ArrayList<>();
    try (CloseableIterator<Row> rows =
        env.fromSource(source(options).build(), WatermarkStrategy.noWatermarks(), "bounded")
            .executeAndCollect()) {
      rows.forEachRemaining(r -> ids.add((Long) r.getField(0)));
    }
    ids.sort(null);
    return ids;
  }

  /** Collects rows in {@link #COLLECTED}. */
  static final class CollectingSink implements Sink<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<Row> createWriter(WriterInitContext context) {
      return writer();
    }

    @Override
    @Deprecated
    public SinkWriter<Row> createWriter(InitContext context) {
      return writer();
    }

    private static SinkWriter<Row> writer() {
      return new SinkWriter<>() {
        @Override
        public void write(Row row, Context context) {
          COLLECTED.add(row);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
