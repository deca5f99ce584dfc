package io.lakestream.bench.lakebase;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.testkit.kafka.KafkaBroker;
import io.lakestream.testkit.postgres.PostgresDatabase;
import io.lakestream.testkit.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * lakebase-latency-p99-ms (issue 7): end-to-end latency Kafka produce -> row written in PostgreSQL
 * for a realTime query at 5,000 records/s ({@link LatencyRun} explains the method). Runs the query
 * on the same broker and server after an untimed warm-up query: with the sink's default batch
 * interval in a realTime query (30 ms, checked), with batchinterval 10 ms, and with 100 ms (the
 * default outside realTime), and prints p50 / p99 / p99.9 / max of each. The "peer" is Databricks'
 * documented Lakebase sink latency (about 300 ms common, under 1 s at the tail), which cannot run
 * here: the ratio line of the table only shows both runs kept up with the input rate.
 */
public final class LakebaseLatencyBench implements Bench {
  static final int RATE = 5_000;
  static final String REAL_TIME_INTERVAL =
      LakebaseSinkOptions.REAL_TIME_BATCH_INTERVAL.toMillis() + " ms";

  @Override
  public String id() {
    return "lakebase-latency-p99-ms";
  }

  @Override
  public String description() {
    return "realTime query Kafka -> Lakebase sink at 5,000 records/s: produce -> row written"
        + " latency p50/p99 (batchinterval 30 = realTime default, 10 and 100 ms); 150K records"
        + " (30 s) each";
  }

  @Override
  public long defaultRows() {
    return 150_000;
  }

  @Override
  public boolean warmsUp() {
    return false; // each run has its own warm-up seconds, excluded from the percentiles
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.kafka();
    services.postgres();
    services.load("io.lakestream.connectors.lakebase.sink.LakebaseSink");
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    long measured = options.rowsOr(defaultRows());
    long warmup = Math.min(25_000, Math.max(1_000, measured / 5));
    Path dir = Files.createDirectories(options.workDir());
    try (KafkaBroker kafka = KafkaBroker.start();
        PostgresServer server = PostgresServer.start();
        PostgresDatabase db = server.createDatabase("lakebase_latency")) {
      // an untimed first query: JIT, class loading and the first connections would otherwise
      // weigh on whichever variant runs first
      LatencyRun.run(kafka, db, dir, "warm", "100 ms", warmup, Math.min(measured, 10_000), RATE);
      LatencyRun.Result fast = LatencyRun.run(kafka, db, dir, "rt", null, warmup, measured, RATE);
      if (!fast.batchInterval().equals(LakebaseSinkOptions.REAL_TIME_BATCH_INTERVAL)) {
        throw new IllegalStateException(
            "the realTime query's sink flushes every "
                + fast.batchInterval()
                + ", not the realTime default "
                + LakebaseSinkOptions.REAL_TIME_BATCH_INTERVAL);
      }
      LatencyRun.Result shorter =
          LatencyRun.run(kafka, db, dir, "short", "10 ms", warmup, measured, RATE);
      LatencyRun.Result slow =
          LatencyRun.run(kafka, db, dir, "default", "100 ms", warmup, measured, RATE);
      List<String> notes = new ArrayList<>();
      notes.add(line("batchinterval " + REAL_TIME_INTERVAL + " (realTime default)", fast));
      notes.add(line("batchinterval 10 ms (given)", shorter));
      notes.add(line("batchinterval 100 ms (given; the default outside realTime)", slow));
      notes.add(
          String.format(
              Locale.ROOT,
              "lakebase-latency-p99-ms = %.1f (p99 in ms with the realTime batch interval; target"
                  + " < 100; Databricks documents ~300 ms common, < 1 s tail)",
              fast.percentileMillis(0.99)));
      notes.add(
          String.format(
              Locale.ROOT,
              "method: producer paced at %,d records/s (linger.ms 0, acks 1), %,d warm-up records"
                  + " then %,d measured, each its own key; latency = clock_timestamp() of a BEFORE"
                  + " INSERT trigger - the send time in the record (same clock); query trigger"
                  + " realTime (1 ms buffer timeout, checkpoint every 10 s), p=2, Kafka source ->"
                  + " parse -> Lakebase sink chained, 2 partitions; every measured row is checked"
                  + " present",
              RATE,
              warmup,
              measured));
      return new BenchResult(
          id(),
          measurement("lakestream: batchinterval " + REAL_TIME_INTERVAL, fast),
          measurement("lakestream: batchinterval 100 ms", slow),
          List.of(measurement("lakestream: batchinterval 10 ms", shorter)),
          notes);
    }
  }

  private static Measurement measurement(String side, LatencyRun.Result r) {
    return new Measurement(
        side,
        r.records(),
        r.produceNanos(),
        -1,
        -1,
        -1,
        String.format(
            Locale.ROOT,
            "latency p50 %.1f ms, p99 %.1f ms, max %.1f ms",
            r.percentileMillis(0.50),
            r.percentileMillis(0.99),
            r.maxMillis()));
  }

  private static String line(String variant, LatencyRun.Result r) {
    return String.format(
        Locale.ROOT,
        "%s: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms over %,d records"
            + " (of which send -> seen by the job's parse operator: p50 %.1f ms, p99 %.1f ms)",
        variant,
        r.percentileMillis(0.50),
        r.percentileMillis(0.90),
        r.percentileMillis(0.99),
        r.percentileMillis(0.999),
        r.maxMillis(),
        r.latencyMicros().length,
        r.toJobPercentileMillis(0.50),
        r.toJobPercentileMillis(0.99));
  }
}
