package io.lakestream.connectors.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * cloudFiles.cleanSource DELETE and MOVE end to end, on the S3 server and on the local file system:
 * while the query runs, a file leaves the input path only after all its rows are committed, and not
 * before the retention passed; in the end every file is gone (or moved, with its content) and the
 * sink holds every row once. A move that fails is retried without failing the query.
 */
class AutoLoaderCleanSourceITCase {
  @RegisterExtension
  @Order(1)
  static final S3ServerExtension S3 = new S3ServerExtension("autoloader-clean");

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  private static final int FILES = 8;
  private static final int ROWS_PER_FILE = 20;
  private static final long RETENTION_MILLIS = 5_000;

  @TempDir Path dir;

  private Map<String, String> conf() {
    return S3aSettings.of(S3.server());
  }

  private String location(String fs, String name) {
    return fs.equals("s3")
        ? S3aSettings.uri(S3.server(), name)
        : dir.resolve(name).toUri().toString();
  }

  private FileSystem fileSystem(String uri) throws IOException {
    org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
    conf().forEach(hadoop::set);
    return FileSystem.newInstance(URI.create(uri), hadoop);
  }

  private static String key(int file) {
    return String.format("date=2026-11-29/part-%03d.json", file);
  }

  private JobID start(String input, CommittedRows out, String... options) {
    Map<String, String> opts = new TreeMap<>();
    opts.put("cloudFiles.format", "json");
    opts.put("cloudFiles.cleanSource.retentionDuration", RETENTION_MILLIS + " ms");
    for (int i = 0; i < options.length; i += 2) {
      opts.put(options[i], options[i + 1]);
    }
    AutoLoader loader =
        AutoLoaderBuilder.forPath(input)
            .name("clean-files")
            .hadoopConf(conf())
            .schema("id BIGINT, name STRING")
            .query(
                new QueryContext(
                    "q",
                    "bronze",
                    "r",
                    "a",
                    dir.resolve("chk").toUri().toString(),
                    false,
                    false,
                    OutputMode.APPEND))
            .options(opts)
            .build();
    StreamExecutionEnvironment env = FLINK.environment();
    Configuration noRestarts = new Configuration();
    noRestarts.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    env.configure(noRestarts);
    env.setParallelism(2);
    loader.stream(env).sinkTo(out.sink()).uid("out");
    return FLINK.submit(env);
  }

  /** Ids of the committed rows. */
  private static Set<Long> committedIds(CommittedRows out) {
    Set<Long> ids = new HashSet<>();
    out.rows().forEach(r -> ids.add(Long.parseLong(r[0])));
    return ids;
  }

  private static boolean allRowsOf(Set<Long> ids, int file) {
    return LongStream.range((long) file * ROWS_PER_FILE, (long) (file + 1) * ROWS_PER_FILE)
        .allMatch(ids::contains);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"s3, DELETE", "s3, MOVE", "local, DELETE", "local, MOVE"})
  void cleansOnlyCommittedFilesAfterTheRetention(String fs, String mode) throws Exception {
    String input = location(fs, "landing/" + mode.toLowerCase());
    String archive = location(fs, "archive/" + mode.toLowerCase());
    LandingZone landing = new LandingZone(input, conf());
    for (int f = 0; f < FILES; f++) {
      landing.writeRows(key(f), (long) f * ROWS_PER_FILE, ROWS_PER_FILE);
    }
    CommittedRows out = new CommittedRows(dir.resolve("out"));
    JobID job =
        mode.equals("MOVE")
            ? start(
                input,
                out,
                "cloudFiles.cleanSource",
                "MOVE",
                "cloudFiles.cleanSource.moveDestination",
                archive)
            : start(input, out, "cloudFiles.cleanSource", "DELETE");

    try (FileSystem files = fileSystem(input)) {
      long allCommittedAt = 0;
      List<String> violations = new ArrayList<>();
      long deadline = System.currentTimeMillis() + 120_000;
      while (System.currentTimeMillis() < deadline) {
        // a file's existence is read before the rows, so a file gone here had its rows before
        List<Integer> gone = new ArrayList<>();
        for (int f = 0; f < FILES; f++) {
          if (!files.exists(new org.apache.hadoop.fs.Path(input + "/" + key(f)))) {
            gone.add(f);
          }
        }
        Set<Long> ids = committedIds(out);
        for (int f : gone) {
          if (!allRowsOf(ids, f)) {
            violations.add(key(f) + " cleaned before its rows were committed");
          }
        }
        if (allCommittedAt == 0 && ids.size() == FILES * ROWS_PER_FILE) {
          allCommittedAt = System.currentTimeMillis();
          assertThat(gone).as("nothing cleaned before the retention passed").isEmpty();
        }
        if (gone.size() == FILES) {
          assertThat(System.currentTimeMillis() - allCommittedAt)
              .as("cleaned only after the retention")
              .isGreaterThanOrEqualTo(RETENTION_MILLIS - 1_000);
          break;
        }
        Thread.sleep(100);
      }
      assertThat(violations).isEmpty();
      for (int f = 0; f < FILES; f++) {
        assertThat(files.exists(new org.apache.hadoop.fs.Path(input + "/" + key(f))))
            .as("cleaned: " + key(f))
            .isFalse();
        if (mode.equals("MOVE")) {
          org.apache.hadoop.fs.Path moved = new org.apache.hadoop.fs.Path(archive + "/" + key(f));
          assertThat(files.exists(moved)).as("moved: " + key(f)).isTrue();
          assertThat(files.getFileStatus(moved).getLen()).isGreaterThan(0);
        }
      }
    }
    // more epochs and listings: nothing is read again
    FLINK.cluster().waitForMoreCheckpoints(job, 3, Duration.ofSeconds(60));
    FLINK.cluster().cancel(job, Duration.ofSeconds(60));
    assertThat(out.rows().stream().map(r -> Long.parseLong(r[0])).sorted().toList())
        .containsExactlyElementsOf(
            LongStream.range(0, (long) FILES * ROWS_PER_FILE).boxed().collect(Collectors.toList()));
  }

  @Test
  void aFailedMoveIsRetriedWithoutFailingTheQuery() throws Exception {
    Path input = dir.resolve("landing");
    Path archive = dir.resolve("archive");
    Files.writeString(archive, "a file where the archive directory should be");
    LandingZone landing = new LandingZone(input.toUri().toString(), Map.of());
    landing.writeRows(key(0), 0, ROWS_PER_FILE);
    CommittedRows out = new CommittedRows(dir.resolve("out"));
    JobID job =
        start(
            input.toString(),
            out,
            "cloudFiles.cleanSource",
            "MOVE",
            "cloudFiles.cleanSource.moveDestination",
            archive.toString(),
            "cloudFiles.cleanSource.retentionDuration",
            "0 s");
    CommittedRows.await(() -> out.rows().size() >= ROWS_PER_FILE, "the rows of file 0");
    // several checkpoints: each tries the move and fails
    FLINK.cluster().waitForMoreCheckpoints(job, 3, Duration.ofSeconds(60));
    assertThat(input.resolve(key(0))).exists();

    Files.delete(archive); // the next try succeeds
    CommittedRows.await(
        () -> Files.exists(archive.resolve(key(0))) && !Files.exists(input.resolve(key(0))),
        "the move to be retried");
    landing.writeRows(key(1), ROWS_PER_FILE, ROWS_PER_FILE); // the query still runs
    CommittedRows.await(() -> out.rows().size() >= 2 * ROWS_PER_FILE, "the rows of file 1");
    FLINK.cluster().cancel(job, Duration.ofSeconds(60));
    assertThat(out.rows()).hasSize(2 * ROWS_PER_FILE);
  }
}
