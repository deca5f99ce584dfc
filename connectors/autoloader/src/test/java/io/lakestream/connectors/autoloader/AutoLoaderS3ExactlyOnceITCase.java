package io.lakestream.connectors.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files landing in an S3 prefix, read by Auto Loader into an exactly-once sink while a task fails
 * mid-stream (RocksDB state, restart from the last checkpoint), with frequent full listings that
 * find every already processed file again and files written below the listing cursor (out of
 * lexical order) that only a full listing finds: the sink holds every row of every file exactly
 * once, row for row, with the partition column from the path.
 */
class AutoLoaderS3ExactlyOnceITCase {
  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("autoloader-eo");

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicInteger CHECKPOINTS = new AtomicInteger();
  static final AtomicLong SEEN = new AtomicLong();

  private static final int ROWS_PER_FILE = 50;

  @TempDir Path dir;

  @Test
  void everyFileExactlyOnceAcrossAFailureAndFullListings() throws Exception {
    Map<String, String> conf = S3aSettings.of(S3.server());
    LandingZone landing = new LandingZone(S3aSettings.uri(S3.server(), "landing/events"), conf);
    Map<String, Long> firstIdOfFile = new TreeMap<>();
    long[] nextId = {0};
    Map<String, List<String>> round1 = new TreeMap<>();
    for (String day : List.of("2026-11-27", "2026-11-28")) {
      for (int i = 0; i < 20; i++) {
        round1.put(String.format("date=%s/part-%03d.json", day, i), lines(nextId[0]));
        firstIdOfFile.put(String.format("date=%s/part-%03d.json", day, i), nextId[0]);
        nextId[0] += ROWS_PER_FILE;
      }
    }
    landing.writeAll(round1);

    QueryContext query =
        new QueryContext(
            "qid",
            "bronze",
            "run-1",
            "bronze-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    AutoLoader loader =
        AutoLoaderBuilder.forPath(landing.root())
            .name("events-files")
            .hadoopConf(conf)
            .query(query)
            .options(
                Map.of(
                    "cloudFiles.format", "json",
                    "cloudFiles.schemaLocation",
                        S3aSettings.uri(S3.server(), "state/events-schema"),
                    "cloudFiles.inferColumnTypes", "true",
                    "cloudFiles.maxFilesPerTrigger", "7"))
            .build();
    assertThat(loader.schema().ddl()).isEqualTo("id BIGINT, name STRING");
    assertThat(loader.schema().partitionColumns()).containsExactly("date");

    StreamExecutionEnvironment env = FLINK.environment();
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    env.configure(restarts);
    env.setParallelism(2);
    CommittedRows out = new CommittedRows(dir.resolve("out"));
    loader.stream(env).map(new FailOnceMidStream()).uid("fail-once").sinkTo(out.sink()).uid("out");
    JobID job = FLINK.submit(env);

    CommittedRows.await(FAILED::get, "the injected failure");
    Map<String, List<String>> round2 = new TreeMap<>();
    for (int i = 0; i < 15; i++) {
      String key = String.format("date=2026-11-29/part-%03d.json", i);
      round2.put(key, lines(nextId[0]));
      firstIdOfFile.put(key, nextId[0]);
      nextId[0] += ROWS_PER_FILE;
    }
    landing.writeAll(round2);
    long round2Total = nextId[0];
    CommittedRows.await(() -> out.rows().size() >= round2Total, "the rows of rounds 1 and 2");

    // below the cursor (now in date=2026-11-29): only a full listing finds these
    for (int i = 0; i < 3; i++) {
      String key = String.format("date=2026-11-27/late-%d.json", i);
      landing.write(key, lines(nextId[0]));
      firstIdOfFile.put(key, nextId[0]);
      nextId[0] += ROWS_PER_FILE;
    }
    long total = nextId[0];
    CommittedRows.await(() -> out.rows().size() >= total, "the rows of the late files");
    // two more full listings find every file again, and two checkpoints commit what they admit:
    // a duplicate, if any, has landed by then
    CheckpointLocation location = new CheckpointLocation(dir.resolve("chk").toUri());
    long listings = fullListings(location);
    CommittedRows.await(() -> fullListings(location) >= listings + 2, "two more full listings");
    FLINK.cluster().waitForMoreCheckpoints(job, 2, Duration.ofSeconds(60));
    FLINK.cluster().cancel(job, Duration.ofSeconds(60));

    List<String[]> rows = out.rows();
    assertThat(rows.stream().map(r -> Long.parseLong(r[0])).sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(LongStream.range(0, total).boxed().collect(Collectors.toList()));
    for (String[] row : rows) {
      long id = Long.parseLong(row[0]);
      String file =
          firstIdOfFile.entrySet().stream()
              .filter(e -> e.getValue() <= id && id < e.getValue() + ROWS_PER_FILE)
              .findFirst()
              .orElseThrow()
              .getKey();
      assertThat(row[1]).isEqualTo("row-" + id);
      assertThat(row[2]).isEqualTo(file.substring(5, 15)); // the date partition
      assertThat(row[3]).isEqualTo("\\N"); // nothing rescued
    }
    out.assertEachEpochCommittedOnce();
    // discovery kept listing incrementally, with full listings in between
    List<Long> epochs = location.epochs().offsetEpochs();
    var last = location.epochs().readOffsets(epochs.get(epochs.size() - 1)).get("events-files");
    assertThat(last.get("metrics").get("fullListings").asLong()).isGreaterThan(0);
    assertThat(last.get("offsets").get("filesAdmitted").asLong()).isGreaterThanOrEqualTo(55);
  }

  /** The source's full listings so far, from the newest offsets record; 0 before the first. */
  private static long fullListings(CheckpointLocation location) {
    try {
      List<Long> epochs = location.epochs().offsetEpochs();
      if (epochs.isEmpty()) {
        return 0;
      }
      var record = location.epochs().readOffsets(epochs.get(epochs.size() - 1)).get("events-files");
      return record == null ? 0 : record.path("metrics").path("fullListings").asLong();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<String> lines(long first) {
    return LongStream.range(first, first + ROWS_PER_FILE)
        .mapToObj(id -> "{\"id\":" + id + ",\"name\":\"row-" + id + "\"}")
        .collect(Collectors.toList());
  }

  /** Fails once, mid-stream, after two checkpoints completed and some rows went through. */
  static final class FailOnceMidStream implements MapFunction<Row, Row>, CheckpointListener {
    @Override
    public Row map(Row row) {
      if (SEEN.incrementAndGet() > 700
          && CHECKPOINTS.get() >= 2
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure at row " + row.getField(0));
      }
      return row;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      CHECKPOINTS.incrementAndGet();
    }
  }
}
