package io.lakestream.bench.autoloader;

import io.lakestream.bench.dedup.CapturingReporter;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The file ledger's size over a long discovery run with {@code cloudFiles.maxFileAge}: files keep
 * arriving in waves, and after each wave is ingested the ledger's entries (gauge {@code
 * numLedgerEntries}, summed over subtasks, read live through {@link CapturingReporter}) are sampled
 * with the files ingested so far and the entries evicted. Without expiry the ledger would hold
 * every file ever read; with it, it holds the files of the last max age, so it levels off while the
 * files ingested keep growing, and drains once files stop arriving.
 *
 * <p>The run is scaled to seconds: a max age of {@value #MAX_AGE_SECONDS} s (below Databricks' 14
 * days minimum through {@link AutoLoaderOptions#MIN_MAX_FILE_AGE_PROPERTY}, which this run sets and
 * restores) and a wave every {@value #WAVE_SECONDS} s, so about {@code max age / wave interval}
 * waves are in the ledger at a time. Local files (the ledger does not depend on the file system).
 * The run fails if a file is lost or read twice, if nothing was evicted, or if the ledger ends the
 * waves holding more than the files of {@code max age / interval + 2} waves.
 */
final class LedgerExpiryRun {
  static final int MAX_AGE_SECONDS = 4;
  static final int WAVE_SECONDS = 1;

  /** Waves by default; {@code BENCH_LEDGER_WAVES} asks for a longer run (at least this many). */
  static final int WAVES = 12;

  /** One sample: seconds since the first wave, files ingested, ledger entries, entries evicted. */
  record Sample(double seconds, long ingested, long entries, long evicted) {}

  private final FlinkMiniCluster flink;
  private final Path landing;
  private final int parallelism;
  private final long filesPerWave;
  private final int waves =
      Math.max(WAVES, Integer.parseInt(System.getenv().getOrDefault("BENCH_LEDGER_WAVES", "12")));

  LedgerExpiryRun(FlinkMiniCluster flink, Path workDir, int parallelism, long files) {
    this.flink = flink;
    this.landing = workDir.resolve("ledger-expiry-landing");
    this.parallelism = parallelism;
    this.filesPerWave = Math.max(10, Math.min(200, files / 100));
  }

  /** Files written per wave. */
  long filesPerWave() {
    return filesPerWave;
  }

  /** The most entries the ledger may hold at the end of the waves. */
  long bound() {
    return filesPerWave * (MAX_AGE_SECONDS / WAVE_SECONDS + 2);
  }

  /** Runs the waves, then waits a max age for the ledger to drain; the samples in order. */
  List<Sample> run() throws Exception {
    Files.createDirectories(landing);
    String previous = System.getProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY);
    System.setProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY, "1000");
    IdTally tally = new IdTally("ledger-expiry");
    StreamExecutionEnvironment env = flink.environment();
    env.setParallelism(parallelism);
    try {
      AutoLoaderBuilder.forPath(landing.toString())
          .name("ledger-files")
          .schema("id BIGINT")
          .options(
              Map.of(
                  "cloudFiles.format", "json",
                  "cloudFiles.maxFileAge", MAX_AGE_SECONDS + " s",
                  "cloudFiles.maxFilesPerTrigger", "10000"))
          .build()
          .stream(env)
          .map(row -> (Long) row.getField(0))
          .returns(Types.LONG)
          .uid("ledger-ids")
          .addSink(tally)
          .uid("ledger-tally");
    } finally {
      restore(previous);
    }
    CapturingReporter.reset(); // the gauges of the cluster's earlier jobs stay registered
    JobID job = flink.submit(env);
    // files must be listed within a max age of their writing: start the waves once the job runs
    flink.waitForMoreCheckpoints(job, 1, Duration.ofMinutes(2));
    List<Sample> samples = new ArrayList<>();
    long start = System.nanoTime();
    for (int wave = 0; wave < waves; wave++) {
      write(wave);
      long target = (wave + 1) * filesPerWave;
      AutoLoaderDiscoveryBench.await(flink, job, tally::count, target, "ledger wave " + wave);
      samples.add(sample(start, tally));
      long next = start + Duration.ofSeconds((long) (wave + 1) * WAVE_SECONDS).toNanos();
      Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
    }
    Thread.sleep(Duration.ofSeconds(MAX_AGE_SECONDS + WAVE_SECONDS).toMillis());
    samples.add(sample(start, tally));
    flink.cancel(job, Duration.ofMinutes(2));
    tally.check(waves * filesPerWave);
    check(samples);
    return samples;
  }

  private static void restore(String previous) {
    if (previous == null) {
      System.clearProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY);
    } else {
      System.setProperty(AutoLoaderOptions.MIN_MAX_FILE_AGE_PROPERTY, previous);
    }
  }

  private static Sample sample(long start, IdTally tally) {
    return new Sample(
        (System.nanoTime() - start) / 1e9,
        tally.count(),
        CapturingReporter.sum(CapturingReporter.LEDGER_ENTRIES),
        CapturingReporter.sum(CapturingReporter.LEDGER_EVICTED));
  }

  /** Fails unless entries were evicted and the ledger stayed within {@link #bound()}. */
  private void check(List<Sample> samples) {
    Sample lastWave = samples.get(waves - 1);
    if (lastWave.evicted() == 0 || lastWave.entries() > bound()) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "ledger expiry: after %d waves of %d files the ledger holds %d entries (at most %d"
                  + " expected) and evicted %d",
              waves,
              filesPerWave,
              lastWave.entries(),
              bound(),
              lastWave.evicted()));
    }
  }

  /** Wave {@code wave}: files with ids {@code wave * perWave ..}, one JSON line each. */
  private void write(int wave) throws IOException {
    Path dir = landing.resolve(String.format("wave=%03d", wave));
    Files.createDirectories(dir);
    for (long i = 0; i < filesPerWave; i++) {
      long id = wave * filesPerWave + i;
      Path tmp = dir.resolve(".part-" + id + ".tmp");
      Files.write(tmp, ("{\"id\":" + id + "}\n").getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, dir.resolve("part-" + id + ".json"));
    }
  }

  /**
   * The markdown section of the samples (the last one taken a max age after the last wave); a long
   * run shows about 20 of its waves, evenly spread, and the last two samples.
   */
  static String render(List<Sample> samples, long perWave, long bound) {
    int waves = samples.size() - 1;
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "File ledger over a long discovery run with cloudFiles.maxFileAge = %d s: %d waves of"
                + " %,d files, one every %d s, then a max age with no new files (numLedgerEntries"
                + " summed over subtasks; the ledger may hold at most %,d at the last wave):%n%n",
            MAX_AGE_SECONDS,
            waves,
            perWave,
            WAVE_SECONDS,
            bound));
    out.append("| s | files ingested | ledger entries | entries evicted |\n");
    out.append("|---:|---:|---:|---:|\n");
    int step = Math.max(1, (waves + 19) / 20);
    for (int i = 0; i < samples.size(); i++) {
      if (i % step != 0 && i < samples.size() - 2) {
        continue;
      }
      Sample s = samples.get(i);
      out.append(
          String.format(
              Locale.ROOT,
              "| %.1f | %,d | %,d | %,d |%n",
              s.seconds(),
              s.ingested(),
              s.entries(),
              s.evicted()));
    }
    return out.toString();
  }
}
