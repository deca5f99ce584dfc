package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.util.FlinkUserCodeClassLoaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressTrackerTest {
  @TempDir Path dir;

  private final List<QueryProgress> reported = new ArrayList<>();
  private final AtomicInteger idle = new AtomicInteger();
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  private final EpochClock clock = new EpochClock(T0);

  private EpochLog log() {
    return new CheckpointLocation(dir.toUri()).epochs();
  }

  private ProgressTracker tracker(long restoredEpoch, Duration idleAfter) throws Exception {
    return new ProgressTracker(
        log(),
        "query-id",
        "run-id",
        "orders",
        restoredEpoch,
        1,
        1,
        idleAfter,
        StateOperatorProgress::none,
        clock,
        new ProgressTracker.Sink() {
          @Override
          public void progress(QueryProgress progress) {
            reported.add(progress);
          }

          @Override
          public void idle() {
            idle.incrementAndGet();
          }
        });
  }

  private void epoch(long epoch, long totalOffset, long outputRows, Instant committedAt)
      throws Exception {
    epoch(epoch, totalOffset, outputRows, committedAt, Map.of(), Map.of());
  }

  /** Writes the records of {@code epoch}, each with the {@code extra} fields of its kind. */
  private void epoch(
      long epoch,
      long totalOffset,
      long outputRows,
      Instant committedAt,
      Map<String, Object> extraOffsets,
      Map<String, Object> extraCommit)
      throws Exception {
    Map<String, Object> offsets = new LinkedHashMap<>(extraOffsets);
    offsets.put("source", "numbers");
    offsets.put("offsets", Map.of("partition-0", totalOffset));
    offsets.put("totalOffset", totalOffset);
    offsets.put("endOffsets", Map.of("partition-0", 1000));
    offsets.put("metrics", Map.of("maxOffsetsBehindLatest", 1000 - totalOffset));
    log().writeOffsets(epoch, "numbers", offsets);
    Map<String, Object> commit = new LinkedHashMap<>(extraCommit);
    commit.put("sink", "counts");
    commit.put("description", "json-lines /t");
    commit.put("numOutputRows", outputRows);
    commit.put("watermark", "2026-01-01T00:00:0" + epoch + "Z");
    commit.put("committedAt", committedAt.toString());
    log().writeCommit(epoch, "counts", commit);
  }

  /**
   * The runner started at T0; checkpoint 1 was triggered at T0+1000, completed at T0+1100, its sink
   * commit (30 ms) ended at T0+1150; checkpoint 2 at T0+1500, T0+1580, commit (40 ms) ending at
   * T0+1700. Epoch 2 read 150 rows (totals 100 -> 250), its source's look-up of the latest offsets
   * took 7 ms.
   */
  @Test
  void reportsEachEpochInTheStructuredStreamingShape() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    clock.triggered(1, T0.plusMillis(1000));
    clock.completed(1, T0.plusMillis(1100));
    epoch(1, 100, 100, T0.plusMillis(1150), Map.of(), Map.of("commitDurationMs", 30));
    clock.triggered(2, T0.plusMillis(1500));
    clock.completed(2, T0.plusMillis(1580));
    epoch(
        2,
        250,
        150,
        T0.plusMillis(1700),
        Map.of("latestOffsets", Map.of("partition-0", 400), "latestOffsetMs", 7),
        Map.of("commitDurationMs", 40));
    tracker.poll(false);

    assertThat(reported).extracting(QueryProgress::batchId).containsExactly(1L, 2L);
    JsonNode first = reported.get(0).json();
    assertThat(first.path("timestamp").asText()).as("the runner's start").isEqualTo(T0.toString());
    assertThat(first.path("durationMs").path("addBatch").asLong()).isEqualTo(1000);
    assertThat(first.path("inputRowsPerSecond").asDouble()).isEqualTo(100.0);
    assertThat(first.path("sources").get(0).path("startOffset").isNull()).isTrue();

    JsonNode p = reported.get(1).json();
    assertThat(p.path("id").asText()).isEqualTo("query-id");
    assertThat(p.path("runId").asText()).isEqualTo("run-id");
    assertThat(p.path("name").asText()).isEqualTo("orders");
    assertThat(p.path("timestamp").asText()).isEqualTo(T0.plusMillis(1000).toString());
    assertThat(p.path("batchId").asLong()).isEqualTo(2);
    assertThat(p.path("batchDuration").asLong()).isEqualTo(700);
    assertThat(p.path("numInputRows").asLong()).isEqualTo(150);
    JsonNode duration = p.path("durationMs");
    assertThat(duration.path("latestOffset").asLong()).isEqualTo(7);
    assertThat(duration.path("addBatch").asLong()).as("1500 - 1000").isEqualTo(500);
    assertThat(duration.path("walCommit").asLong()).as("1580 - 1500").isEqualTo(80);
    assertThat(duration.path("commitOffsets").asLong()).isEqualTo(40);
    assertThat(duration.path("triggerExecution").asLong()).as("1700 - 1000").isEqualTo(700);
    assertThat(p.path("inputRowsPerSecond").asDouble()).as("150 rows in 500 ms").isEqualTo(300.0);
    assertThat(p.path("processedRowsPerSecond").asDouble())
        .as("150 rows in 700 ms")
        .isCloseTo(214.2857, within(0.001));
    assertThat(p.path("eventTime").path("watermark").asText()).isEqualTo("2026-01-01T00:00:02Z");
    assertThat(p.path("stateOperators").isArray()).isTrue();
    JsonNode source = p.path("sources").get(0);
    assertThat(source.path("description").asText()).isEqualTo("numbers");
    assertThat(source.path("startOffset").path("partition-0").asLong()).isEqualTo(100);
    assertThat(source.path("endOffset").path("partition-0").asLong()).isEqualTo(250);
    assertThat(source.path("latestOffset").path("partition-0").asLong()).isEqualTo(400);
    assertThat(source.path("numInputRows").asLong()).isEqualTo(150);
    assertThat(source.path("inputRowsPerSecond").asDouble()).isEqualTo(300.0);
    assertThat(source.path("processedRowsPerSecond").asDouble()).isCloseTo(214.2857, within(0.001));
    assertThat(source.path("metrics").path("maxOffsetsBehindLatest").asLong()).isEqualTo(750);
    assertThat(p.path("sink").path("description").asText()).isEqualTo("json-lines /t");
    assertThat(p.path("sink").path("numOutputRows").asLong()).isEqualTo(150);
    assertThat(log().readProgress(2)).isPresent();
  }

  /** A source without a measured look-up shows its run's end offsets as {@code latestOffset}. */
  @Test
  void latestOffsetFallsBackToTheRunsEndOffsets() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    epoch(1, 100, 100, T0.plusMillis(1150));
    tracker.poll(false);
    JsonNode p = reported.get(0).json();
    assertThat(p.path("sources").get(0).path("latestOffset").path("partition-0").asLong())
        .isEqualTo(1000);
    assertThat(p.path("durationMs").has("latestOffset")).isFalse();
  }

  /**
   * An epoch cut before this runner started (reported after a failover) has no measured times: the
   * durations and rates measured from them are left out, not guessed; the sinks' own commit
   * durations still show.
   */
  @Test
  void anEpochWithoutTimesLeavesOutWhatCannotBeMeasured() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    epoch(1, 100, 100, T0.plusMillis(1150), Map.of(), Map.of("commitDurationMs", 30));
    tracker.poll(false);
    JsonNode p = reported.get(0).json();
    assertThat(p.path("numInputRows").asLong()).isEqualTo(100);
    assertThat(p.has("inputRowsPerSecond")).isFalse();
    assertThat(p.has("processedRowsPerSecond")).isFalse();
    assertThat(p.has("batchDuration")).isFalse();
    assertThat(fieldNames(p.path("durationMs"))).containsExactly("commitOffsets");
    assertThat(reported.get(0).summary()).contains("100 input rows (- rows/s)");
  }

  /**
   * Flink notifies the runner and the sinks of a completed checkpoint concurrently: a runner told
   * at T0+1120 of a checkpoint whose sink commit (30 ms) ended at T0+1130 counts the completion
   * from the commit's start (T0+1100), so the phases add up to no more than the whole epoch.
   */
  @Test
  void aCompletionHeardAfterTheSinkStartedCommittingEndsAtTheCommitsStart() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    clock.triggered(1, T0.plusMillis(1000));
    clock.completed(1, T0.plusMillis(1120));
    epoch(1, 100, 100, T0.plusMillis(1130), Map.of(), Map.of("commitDurationMs", 30));
    tracker.poll(false);
    JsonNode duration = reported.get(0).json().path("durationMs");
    assertThat(duration.path("walCommit").asLong()).as("1100 - 1000").isEqualTo(100);
    assertThat(duration.path("triggerExecution").asLong()).isEqualTo(1130);
    assertThat(
            duration.path("addBatch").asLong()
                + duration.path("walCommit").asLong()
                + duration.path("commitOffsets").asLong())
        .isLessThanOrEqualTo(duration.path("triggerExecution").asLong());
  }

  /** Flink may subsume a checkpoint before notifying it: no completion, no walCommit. */
  @Test
  void aCheckpointWithoutCompletionHasNoWalCommit() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    clock.triggered(1, T0.plusMillis(200));
    epoch(1, 100, 100, T0.plusMillis(400));
    tracker.poll(false);
    JsonNode duration = reported.get(0).json().path("durationMs");
    assertThat(fieldNames(duration)).containsExactly("addBatch", "triggerExecution");
    assertThat(duration.path("addBatch").asLong()).isEqualTo(200);
    assertThat(duration.path("triggerExecution").asLong()).isEqualTo(400);
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /**
   * Flink closes a finished job's class loader while the runner's {@code close()} may still report
   * the last epochs (coordinators close asynchronously): after one report, the reports of later
   * epochs must need no class the first one did not load.
   */
  @Test
  void reportsLaterEpochsAfterTheJobsClassLoaderIsClosed() throws Exception {
    try (URLClassLoader job = jobClassLoader()) {
      Driver driver = new Driver(job, dir);
      driver.call("records", 1);
      driver.call("poll");
      driver.call("records", 2);
      driver.call("records", 3);

      job.close(); // as Flink, once the job has finished
      driver.call("poll");
    }
    assertThat(log().progressEpochs()).containsExactly(1L, 2L, 3L);
    JsonNode third = log().readProgress(3).orElseThrow();
    assertThat(third.path("sources").get(0).path("startOffset"))
        .hasToString("{\"partition-0\":200}");
    assertThat(third.path("durationMs").path("addBatch").asLong()).isEqualTo(1000);
  }

  /**
   * An availableNow run may stop before its first epoch is reported: then every report is made in
   * close(), after the job's class loader may have closed.
   */
  @Test
  void reportsTheFirstEpochsAfterTheJobsClassLoaderIsClosed() throws Exception {
    try (URLClassLoader job = jobClassLoader()) {
      Driver driver = new Driver(job, dir);
      driver.call("commit", 1); // the sink's record of epoch 1 is there, the source's not yet
      driver.call("poll");
      driver.call("offsets", 1);
      driver.call("records", 2);

      job.close();
      driver.call("poll");
    }
    assertThat(log().progressEpochs()).containsExactly(1L, 2L);
  }

  /**
   * A job's class loader as Flink makes it: child first over the whole test class path (the job's
   * jar), with Flink, logging and Hadoop classes from the parent (the cluster's lib/), which has
   * neither lakestream nor Jackson (the application jar relocates it).
   */
  private static URLClassLoader jobClassLoader() {
    URL[] classpath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .map(ProgressTrackerTest::toUrl)
            .toArray(URL[]::new);
    ClassLoader cluster =
        new ClassLoader(ProgressTrackerTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.lakestream.") || name.startsWith("com.fasterxml.")) {
              throw new ClassNotFoundException(name + ": only in the job's jar");
            }
            return super.loadClass(name, resolve);
          }
        };
    return FlinkUserCodeClassLoaders.childFirst(
        classpath,
        cluster,
        CoreOptions.getParentFirstLoaderPatterns(new Configuration()),
        error -> {},
        false);
  }

  /** {@link ProgressTrackerInLoader} loaded by {@code loader}, called by reflection. */
  private static final class Driver {
    private final Object driver;

    Driver(ClassLoader loader, Path location) throws Exception {
      Class<?> type = loader.loadClass(ProgressTrackerInLoader.class.getName());
      assertThat(type.getClassLoader()).isSameAs(loader);
      driver = type.getConstructor(Path.class).newInstance(location);
    }

    void call(String method) throws Exception {
      invoke(driver.getClass().getMethod(method));
    }

    void call(String method, long epoch) throws Exception {
      invoke(driver.getClass().getMethod(method, long.class), epoch);
    }

    private void invoke(Method method, Object... args) throws Exception {
      try {
        method.invoke(driver, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Error error) {
          throw error; // e.g. NoClassDefFoundError once the loader is closed
        }
        throw (Exception) e.getCause();
      }
    }
  }

  private static URL toUrl(String classpathEntry) {
    try {
      return Path.of(classpathEntry).toUri().toURL();
    } catch (java.net.MalformedURLException e) {
      throw new IllegalArgumentException(classpathEntry, e);
    }
  }

  @Test
  void theRecordsOfASinksParallelCommittersAddUpToOneSink() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    Map<String, Object> offsets = new LinkedHashMap<>();
    offsets.put("source", "numbers");
    offsets.put("offsets", Map.of("partition-0", 10));
    offsets.put("totalOffset", 10);
    log().writeOffsets(1, "numbers", offsets);
    for (int subtask = 0; subtask < 2; subtask++) {
      Map<String, Object> commit = new LinkedHashMap<>();
      commit.put("sink", "lakebase-public.t");
      commit.put("description", "LakebaseSink[public.t, exactly-once]");
      commit.put("numOutputRows", 3 + subtask);
      commit.put("committedAt", Instant.now().toString());
      log().writeCommit(1, "lakebase-public.t.subtask-" + subtask, commit);
    }
    tracker.poll(false);

    assertThat(reported).hasSize(1);
    JsonNode sink = reported.get(0).json().path("sink");
    assertThat(sink.path("description").asText()).isEqualTo("LakebaseSink[public.t, exactly-once]");
    assertThat(sink.path("numOutputRows").asLong()).isEqualTo(7);
    assertThat(sink.path("sinks")).hasSize(2);
  }

  @Test
  void waitsForTheRecordsOfAnEpochUnlessALaterOneExists() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofHours(1));
    Map<String, Object> commit = new LinkedHashMap<>();
    commit.put("sink", "counts");
    commit.put("numOutputRows", 5);
    commit.put("committedAt", Instant.now().toString());
    log().writeCommit(1, "counts", commit);
    tracker.poll(false);
    assertThat(reported).as("offsets of epoch 1 not yet written").isEmpty();

    epoch(2, 10, 5, Instant.now());
    tracker.poll(false);
    assertThat(reported).extracting(QueryProgress::batchId).containsExactly(1L, 2L);
  }

  /**
   * Epoch 2 was committed by a run that died before reporting it (or by the next run's restore of
   * checkpoint 2): the next run reports it, and never epoch 1 again.
   */
  @Test
  void epochsOfEarlierRunsAreReportedOnceAndInputCountsContinue() throws Exception {
    Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
    epoch(1, 100, 100, t0);
    tracker(0, Duration.ofHours(1)).poll(false);
    epoch(2, 130, 30, t0.plusSeconds(1));
    reported.clear();

    ProgressTracker nextRun = tracker(2, Duration.ofHours(1));
    epoch(3, 160, 30, t0.plusSeconds(2));
    nextRun.poll(false);

    assertThat(reported).extracting(QueryProgress::batchId).containsExactly(2L, 3L);
    assertThat(reported).extracting(QueryProgress::numInputRows).containsExactly(30L, 30L);
  }

  /** A run restored far past its last report reports only the last epochs before its snapshot. */
  @Test
  void aRunRestoredLongAfterItsLastReportReportsOnlyTheLastEpochsBeforeIt() throws Exception {
    Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
    for (long e = 1; e <= 30; e++) {
      epoch(e, 10 * e, 10, t0.plusSeconds(e));
    }
    tracker(30, Duration.ofHours(1)).poll(false);

    assertThat(reported)
        .extracting(QueryProgress::batchId)
        .containsExactlyElementsOf(
            LongStream.rangeClosed(31 - ProgressTracker.REPORTED_LATE, 30).boxed().toList());
  }

  @Test
  void saysIdleOnceWhenNoDataArrives() throws Exception {
    ProgressTracker tracker = tracker(0, Duration.ofMillis(50));
    Thread.sleep(100);
    tracker.poll(false);
    tracker.poll(false);
    assertThat(idle).hasValue(1);
  }
}
