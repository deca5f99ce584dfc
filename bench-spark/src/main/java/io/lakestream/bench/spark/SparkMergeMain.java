package io.lakestream.bench.spark;

import static org.apache.spark.sql.functions.col;

import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The Spark side of {@code bin/bench merge}, run in its own JVM: a Structured Streaming query reads
 * the source Delta table from version 1 with {@code maxFilesPerTrigger=1} (one batch file per
 * version, so micro-batch e is epoch e's batch) and, in {@code foreachBatch}, merges the
 * micro-batch into the silver table with delta-spark: {@code DeltaTable.merge(s, "t.id = s.id")
 * .whenMatched().updateAll().whenNotMatched().insertAll().execute()}. Each foreachBatch call is
 * timed alone (wall and process CPU); trigger availableNow, {@code local[N]}. On a table with
 * {@code delta.enableDeletionVectors=true} delta-spark's MERGE writes deletion vectors (its
 * default), and {@code copied} in the report is 0.
 *
 * <p>Arguments {@code key=value}: {@code table}, {@code source}, {@code checkpoint}, {@code
 * parallelism}, {@code epochs}, {@code batchRows}, {@code expected} ({@code updates:inserts} per
 * epoch, comma-separated), {@code report} (one line per epoch in the format of {@code
 * io.lakestream.bench.merge.EpochTiming}). After the clock the change data feed of every merged
 * version must hold exactly the expected inserts, pre- and post-images, and the query must have run
 * one micro-batch of batchRows rows per epoch, else the process exits 1. Prints one {@code
 * BENCH-RESULT} line.
 */
public final class SparkMergeMain {
  private SparkMergeMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = KeyValueArgs.parse(args);
    int parallelism = Integer.parseInt(a.get("parallelism"));
    int epochs = Integer.parseInt(a.get("epochs"));
    long batchRows = Long.parseLong(a.get("batchRows"));
    String table = a.get("table");
    String[] expected = a.get("expected").split(",");

    SparkSession spark = LocalDeltaSpark.builder("merge-spark", parallelism).getOrCreate();
    spark.sparkContext().setLogLevel("WARN");

    List<String> report = new ArrayList<>();
    Map<Long, Long> versions = new HashMap<>();
    long cpu0 = ProcessResources.cpuNanos();
    long t0 = System.nanoTime();
    VoidFunction2<Dataset<Row>, Long> merge =
        (batch, batchId) -> {
          // Not timed: the table's file count before the MERGE, for the report.
          int filesBefore = DeltaTable.forPath(spark, table).toDF().inputFiles().length;
          long c0 = ProcessResources.cpuNanos();
          long s0 = System.nanoTime();
          DeltaTable target = DeltaTable.forPath(spark, table);
          target
              .as("t")
              .merge(batch.as("s"), "t.id = s.id")
              .whenMatched()
              .updateAll()
              .whenNotMatched()
              .insertAll()
              .execute();
          long nanos = System.nanoTime() - s0;
          long cpu = ProcessResources.cpuNanos() - c0;
          Row last = target.history(1).select("version", "operationMetrics").first();
          scala.collection.Map<String, String> m = last.getMap(1);
          versions.put(batchId, last.getLong(0));
          report.add(
              String.format(
                  Locale.ROOT,
                  "epoch=%d nanos=%d cpuNanos=%d filesInTable=%d filesRead=-1 filesRemoved=%s"
                      + " filesAdded=%s changeFiles=%s updated=%s inserted=%s copied=%s",
                  batchId,
                  nanos,
                  cpu,
                  filesBefore,
                  m.apply("numTargetFilesRemoved"),
                  m.apply("numTargetFilesAdded"),
                  m.getOrElse("numTargetChangeFilesAdded", () -> "-1"),
                  m.apply("numTargetRowsUpdated"),
                  m.apply("numTargetRowsInserted"),
                  m.apply("numTargetRowsCopied")));
          System.err.println("spark merge: " + report.get(report.size() - 1));
        };
    StreamingQuery query =
        spark
            .readStream()
            .format("delta")
            .option("startingVersion", "1")
            .option("maxFilesPerTrigger", "1")
            .load(a.get("source"))
            .writeStream()
            .foreachBatch(merge)
            .option("checkpointLocation", a.get("checkpoint"))
            .trigger(Trigger.AvailableNow())
            .start();
    query.awaitTermination();
    long nanos = System.nanoTime() - t0;
    long cpuNanos = ProcessResources.cpuNanos() - cpu0;
    long peakRss = ProcessResources.peakRssBytes();
    long peakHeap = ProcessResources.peakHeapBytes();

    List<String> problems = new ArrayList<>();
    long input = 0;
    int batches = 0;
    for (StreamingQueryProgress p : query.recentProgress()) {
      input += p.numInputRows();
      if (p.numInputRows() > 0) {
        batches++;
        if (p.numInputRows() != batchRows) {
          problems.add("micro-batch " + p.batchId() + " had " + p.numInputRows() + " rows");
        }
      }
    }
    if (batches != epochs || report.size() != epochs) {
      problems.add(batches + " micro-batches with input and " + report.size() + " merges");
    }
    for (int e = 0; e < epochs && e < report.size(); e++) {
      long version = versions.get((long) e);
      String[] ui = expected[e].split(":");
      Map<String, Long> counts = new HashMap<>();
      for (Row r :
          spark
              .read()
              .format("delta")
              .option("readChangeFeed", "true")
              .option("startingVersion", version)
              .option("endingVersion", version)
              .load(table)
              .groupBy(col("_change_type"))
              .count()
              .collectAsList()) {
        counts.put(r.getString(0), r.getLong(1));
      }
      long updates = Long.parseLong(ui[0]);
      long inserts = Long.parseLong(ui[1]);
      Map<String, Long> want = new HashMap<>();
      want.put("insert", inserts);
      want.put("update_preimage", updates);
      want.put("update_postimage", updates);
      want.values().removeIf(v -> v == 0);
      if (!counts.equals(want)) {
        problems.add(
            "change data feed of version " + version + ": " + counts + ", expected " + want);
      }
    }
    spark.stop();
    if (!problems.isEmpty()) {
      System.err.println("Spark side FAILED its check: " + String.join("; ", problems));
      System.exit(1);
    }
    Files.write(Path.of(a.get("report")), report);
    System.out.printf(
        Locale.ROOT,
        "BENCH-RESULT rows=%d nanos=%d cpuNanos=%d peakRss=%d peakHeap=%d detail=%s%n",
        input,
        nanos,
        cpuNanos,
        peakRss,
        peakHeap,
        String.format(
            Locale.ROOT,
            "Spark %s local[%d], shuffle partitions %d; foreachBatch MERGE, availableNow,"
                + " %d micro-batches; CDF checked",
            spark.version(),
            parallelism,
            parallelism,
            batches));
    System.exit(0);
  }
}
