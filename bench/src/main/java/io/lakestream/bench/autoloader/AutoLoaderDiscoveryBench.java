package io.lakestream.bench.autoloader;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.bench.dedup.CapturingReporter;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.testkit.flink.FlinkMiniCluster;
import io.lakestream.testkit.s3.S3Server;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code autoloader-discovery}: the cost of finding new files in a large date-partitioned S3
 * prefix, lakestream's Auto Loader (start-after listing, file ledger in RocksDB) against Flink's
 * own {@code FileSource} with {@code monitorContinuously}, on one S3 server (s3proxy) behind a
 * counting proxy ({@link S3RequestCounter}) that counts the S3 requests of both sides the same way.
 *
 * <p>Run: FileSource first, while the {@code --files N} files arrive in four quarters (heap after
 * GC once each quarter is ingested: its enumerator keeps every path it saw on the heap), then an
 * idle window and {@code new} more files; then Auto Loader on the same prefix (backfill of all
 * files, heap after GC at each quarter of it), an idle window and {@code new} more files. Finally
 * one discovery pass of each kind alone ({@link ListingProbe}): incremental (the {@code new} files
 * after the cursor), full relisting, and FileSource's pass. Last, the file ledger's size over a
 * long discovery run with {@code cloudFiles.maxFileAge} ({@link LedgerExpiryRun}). Both jobs must
 * emit exactly the files written (count and id sum) or the bench fails.
 */
public final class AutoLoaderDiscoveryBench implements Bench {
  private static final Duration TRIGGER = Duration.ofSeconds(1);
  private static final Duration IDLE = Duration.ofSeconds(10);
  private static final Duration WAIT = Duration.ofMinutes(30);

  @Override
  public String id() {
    return "autoloader-discovery";
  }

  @Override
  public String description() {
    return "S3 listing calls per trigger and heap vs discovered files: Auto Loader vs Flink"
        + " FileSource monitorContinuously (--files N, default 200K)";
  }

  @Override
  public long defaultRows() {
    return 200_000;
  }

  @Override
  public boolean warmsUp() {
    return false;
  }

  /**
   * {@code s3proxy} lets s3proxy answer LIST requests (its filesystem backend walks the whole
   * bucket per flat page); by default the counting proxy answers them from a {@link
   * SortedKeyIndex}.
   */
  static final String LISTING_ENV = "BENCH_S3_LISTING";

  /** Files of the "new files after the backfill" step: 1,000, fewer at small scale. */
  static long newFiles(long files) {
    return Math.max(10, Math.min(1_000, files / 20));
  }

  /** The side's job and what it measured. */
  record SideRun(
      Measurement measurement,
      List<long[]> heap,
      long idleLists,
      double idleSeconds,
      long newLists,
      double newSeconds) {}

  @Override
  public void check(BenchServices services) throws Exception {
    services.s3();
    services.flink();
    services.load("org.apache.hadoop.fs.s3a.S3AFileSystem");
    services.load("org.elasticmq.rest.sqs.SQSRestServerBuilder");
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    long files = options.rowsOr(defaultRows());
    long fresh = newFiles(files);
    if (files < 40) {
      throw new IllegalArgumentException("--files must be at least 40, was " + files);
    }
    double load = ResourcePeaks.loadAverage();
    boolean viaS3proxy = "s3proxy".equalsIgnoreCase(System.getenv(LISTING_ENV));
    try (S3Server s3 = S3Server.start("autoloader-discovery");
        S3RequestCounter counter =
            new S3RequestCounter(
                s3.endpoint(), viaS3proxy ? null : new SortedKeyIndex(s3.bucket(), "landing/"))) {
      String root = "s3a://" + s3.bucket() + "/landing";
      Map<String, String> viaCounter = s3a(s3, counter.endpoint().toString());
      Configuration flinkConf = s3.flinkConfiguration();
      flinkConf.setString("s3.endpoint", counter.endpoint().toString());
      flinkConf.setString(
          "metrics.reporter.capture.factory.class", CapturingReporter.Factory.class.getName());
      CapturingReporter.reset();
      try (LandingFiles landing =
              new LandingFiles(
                  s3.storageDirectory(), s3.bucket(), "landing", files, counter.index());
          FlinkMiniCluster flink =
              FlinkMiniCluster.builder()
                  .checkpointInterval(TRIGGER)
                  .checkpointDirectory(options.workDir().resolve("checkpoints").toUri())
                  .slotsPerTaskManager(options.parallelism())
                  .configuration(flinkConf)
                  .start()) {
        List<String> notes = new ArrayList<>();
        SideRun peer = fileSource(flink, options, landing, counter, root, files, fresh, notes);
        SideRun ours = autoLoader(flink, options, landing, counter, root, files, fresh, viaCounter);
        ListingProbe probe = new ListingProbe(counter);
        String cursor = landing.key(files + fresh - 1); // before the last new files
        ListingProbe.Pass incremental = probe.lakestream(root, viaCounter, cursor);
        ListingProbe.Pass idle =
            probe.lakestream(root, viaCounter, landing.key(files + 2 * fresh - 1));
        ListingProbe.Pass full = probe.lakestream(root, viaCounter, "");
        ListingProbe.Pass flinkPass = probe.fileSource(root);
        long total = files + 2 * fresh;
        check("incremental listing", incremental.files(), fresh);
        check("idle incremental listing", idle.files(), 0);
        check("full relisting", full.files(), total);
        check("FileSource discovery pass", flinkPass.files(), total);
        if (counter.unparsed() > 0) {
          throw new IllegalStateException(
              counter.unparsed() + " requests with a chunked body: LIST counts are incomplete");
        }
        notes.add(
            String.format(
                Locale.ROOT,
                "%,d files in %,d hour directories (date=2026-11-DD/hour=HH/part-N.json, one JSON"
                    + " line each), then %,d + %,d new files; trigger/discovery interval %d s;"
                    + " parallelism %d; S3 requests counted by a proxy in front of s3proxy"
                    + " (filesystem-nio2 backend); %s",
                files,
                landing.directories(),
                fresh,
                fresh,
                TRIGGER.toSeconds(),
                options.parallelism(),
                viaS3proxy
                    ? "LISTs answered by s3proxy (" + LISTING_ENV + "=s3proxy)"
                    : "LISTs answered by the proxy from a sorted key index (a page costs what it"
                        + " returns, as on S3; "
                        + LISTING_ENV
                        + "=s3proxy lets s3proxy answer),"
                        + " GET and HEAD by s3proxy"));
        notes.add(
            String.format(
                Locale.ROOT,
                "listing ratio (full relisting / incremental, LIST calls for the trigger that finds"
                    + " %,d new files after the backfill): %.1f",
                fresh,
                (double) full.lists() / incremental.lists()));
        notes.add(String.format(Locale.ROOT, "1-min load average at start: %.2f", load));
        LedgerExpiryRun ledger =
            new LedgerExpiryRun(flink, options.workDir(), options.parallelism(), files);
        List<LedgerExpiryRun.Sample> ledgerSamples = ledger.run();
        NotificationRun.Result notified =
            new NotificationRun(flink, s3, counter, viaCounter, options.parallelism(), files).run();
        notes.add(
            String.format(
                Locale.ROOT,
                "file notification mode: %,.0f files/s = %,.0f files/hour (%,d files from an SQS"
                    + " backlog)",
                notified.filesPerSecond(),
                notified.filesPerSecond() * 3600,
                notified.files()));
        String appendix =
            DiscoveryReport.render(files, fresh, ours, peer, incremental, idle, full, flinkPass)
                + '\n'
                + LedgerExpiryRun.render(ledgerSamples, ledger.filesPerWave(), ledger.bound())
                + '\n'
                + NotificationRun.render(notified);
        return new BenchResult(
            id(), ours.measurement(), peer.measurement(), List.of(), notes, appendix);
      }
    }
  }

  private static void check(String what, long got, long expected) {
    if (got != expected) {
      throw new IllegalStateException(what + ": expected " + expected + " files, got " + got);
    }
  }

  static Map<String, String> s3a(S3Server s3, String endpoint) {
    Map<String, String> conf = new TreeMap<>();
    conf.put("fs.s3a.endpoint", endpoint);
    conf.put("fs.s3a.endpoint.region", "us-east-1");
    conf.put("fs.s3a.path.style.access", "true");
    conf.put("fs.s3a.connection.ssl.enabled", "false");
    conf.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.put("fs.s3a.access.key", s3.accessKey());
    conf.put("fs.s3a.secret.key", s3.secretKey());
    conf.put("fs.s3a.attempts.maximum", "3");
    conf.put("fs.s3a.retry.limit", "3");
    return conf;
  }

  private SideRun fileSource(
      FlinkMiniCluster flink,
      BenchOptions options,
      LandingFiles landing,
      S3RequestCounter counter,
      String root,
      long files,
      long fresh,
      List<String> notes)
      throws Exception {
    StreamExecutionEnvironment env = flink.environment();
    env.setParallelism(options.parallelism());
    IdTally tally = new IdTally("filesource");
    FileSource<String> source =
        FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(root))
            .monitorContinuously(TRIGGER)
            .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "filesource")
        .uid("filesource")
        .map(LandingFiles::id)
        .returns(Types.LONG)
        .uid("filesource-ids")
        .addSink(tally)
        .uid("filesource-tally");
    List<long[]> heap = new ArrayList<>();
    heap.add(new long[] {0, heapAfterGc()});
    ResourcePeaks peaks = ResourcePeaks.start();
    JobID job = flink.submit(env);
    double ingestSeconds = 0;
    double writeSeconds = 0;
    for (int quarter = 1; quarter <= 4; quarter++) {
      long from = files * (quarter - 1) / 4;
      long to = files * quarter / 4;
      writeSeconds += landing.write(from, to);
      long start = System.nanoTime();
      await(flink, job, tally::count, to, "FileSource, quarter " + quarter);
      ingestSeconds += (System.nanoTime() - start) / 1e9;
      heap.add(new long[] {to, heapAfterGc()});
    }
    long cpu = peaks.cpuNanos();
    long rss = peaks.peakRssBytes();
    long peakHeap = peaks.peakHeapBytes();
    long lists = counter.lists();
    Thread.sleep(IDLE.toMillis());
    long idleLists = counter.lists() - lists;
    landing.write(files, files + fresh);
    lists = counter.lists();
    long start = System.nanoTime();
    await(flink, job, tally::count, files + fresh, "FileSource, new files");
    double newSeconds = (System.nanoTime() - start) / 1e9;
    long newLists = counter.lists() - lists;
    flink.cancel(job, Duration.ofMinutes(2));
    tally.check(files + fresh);
    notes.add(
        String.format(
            Locale.ROOT,
            "writing the %,d files took %.1f s (%,.0f files/s, 8 threads, straight into s3proxy's"
                + " filesystem-nio2 storage directory with the ETag attribute, atomic moves)",
            files,
            writeSeconds,
            files / writeSeconds));
    Measurement m =
        new Measurement(
            "Flink FileSource monitorContinuously(1 s)",
            files,
            (long) (ingestSeconds * 1e9),
            cpu,
            rss,
            peakHeap,
            "files/s: sum over the 4 quarters of (quarter written -> all its files emitted);"
                + " one line per file");
    return new SideRun(m, heap, idleLists, IDLE.toMillis() / 1e3, newLists, newSeconds);
  }

  private SideRun autoLoader(
      FlinkMiniCluster flink,
      BenchOptions options,
      LandingFiles landing,
      S3RequestCounter counter,
      String root,
      long files,
      long fresh,
      Map<String, String> hadoopConf)
      throws Exception {
    StreamExecutionEnvironment env = flink.environment();
    env.setParallelism(options.parallelism());
    IdTally tally = new IdTally("autoloader");
    AutoLoaderBuilder.forPath(root)
        .name("landing-files")
        .hadoopConf(hadoopConf)
        .schema("id BIGINT, name STRING")
        .options(
            Map.of(
                "cloudFiles.format", "json",
                "cloudFiles.maxFilesPerTrigger", "10000",
                "cloudFiles.useIncrementalListing", "true"))
        .build()
        .stream(env)
        .map(row -> (Long) row.getField(0))
        .returns(Types.LONG)
        .uid("autoloader-ids")
        .addSink(tally)
        .uid("autoloader-tally");
    long backlog = files + fresh; // the FileSource run left these
    List<long[]> heap = new ArrayList<>();
    heap.add(new long[] {0, heapAfterGc()});
    long lists = counter.lists();
    ResourcePeaks peaks = ResourcePeaks.start();
    long start = System.nanoTime();
    JobID job = flink.submit(env);
    for (int quarter = 1; quarter <= 4; quarter++) {
      long target = backlog * quarter / 4;
      await(flink, job, tally::count, target, "Auto Loader backfill, quarter " + quarter);
      heap.add(new long[] {tally.count(), heapAfterGc()});
    }
    long nanos = System.nanoTime() - start;
    long cpu = peaks.cpuNanos();
    long backfillLists = counter.lists() - lists;
    lists = counter.lists();
    Thread.sleep(IDLE.toMillis());
    long idleLists = counter.lists() - lists;
    landing.write(files + fresh, files + 2 * fresh);
    lists = counter.lists();
    long newStart = System.nanoTime();
    await(flink, job, tally::count, backlog + fresh, "Auto Loader, new files");
    double newSeconds = (System.nanoTime() - newStart) / 1e9;
    long newLists = counter.lists() - lists;
    flink.cancel(job, Duration.ofMinutes(2));
    tally.check(files + 2 * fresh);
    Measurement m =
        new Measurement(
            "lakestream Auto Loader",
            backlog,
            nanos,
            cpu,
            peaks.peakRssBytes(),
            peaks.peakHeapBytes(),
            String.format(
                Locale.ROOT,
                "files/s: backfill of all %,d files from job submit; %,d LIST calls;"
                    + " maxFilesPerTrigger 10000, useIncrementalListing true",
                backlog,
                backfillLists));
    return new SideRun(m, heap, idleLists, IDLE.toMillis() / 1e3, newLists, newSeconds);
  }

  static void await(
      FlinkMiniCluster flink,
      JobID job,
      java.util.function.LongSupplier count,
      long target,
      String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (count.getAsLong() < target) {
      if (flink.status(job).isGloballyTerminalState()) {
        Throwable cause =
            flink
                .waitForTermination(job, Duration.ofSeconds(30))
                .getSerializedThrowable()
                .map(t -> t.deserializeError(AutoLoaderDiscoveryBench.class.getClassLoader()))
                .orElse(null);
        throw new IllegalStateException(
            what
                + ": the job ended ("
                + flink.status(job)
                + ") at "
                + count.getAsLong()
                + " of "
                + target
                + " files",
            cause);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            what + ": " + count.getAsLong() + " of " + target + " files after " + WAIT);
      }
      Thread.sleep(50);
    }
  }

  /** Heap in use after two full collections. */
  static long heapAfterGc() throws InterruptedException {
    System.gc();
    Thread.sleep(100);
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
