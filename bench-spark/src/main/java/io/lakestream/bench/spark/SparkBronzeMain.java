package io.lakestream.bench.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.lit;

import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark side of {@code bin/bench e2-bronze}, run in its own JVM: pipeline E2 as Spark
 * Structured Streaming writes it (Kafka -> from_json -> withWatermark(order_ts, 1 hour) ->
 * dropDuplicatesWithinWatermark(event_id) -> Delta, trigger availableNow) on {@code local[N]}.
 *
 * <p>Arguments are {@code key=value}: {@code bootstrap}, {@code topic}, {@code table}, {@code
 * checkpoint}, {@code parallelism}, {@code records} (produced to the topic) and {@code distinct}
 * (distinct event ids among them). The clock runs from creating the SparkSession (Spark's embedded
 * engine, as lakestream's clock includes starting its embedded Flink cluster) to the end of {@code
 * awaitTermination()}; the session's share is printed in the detail. Afterwards the table must hold
 * exactly {@code distinct} rows with {@code distinct} distinct event ids and the query must have
 * read exactly {@code records} input rows, else the process exits 1. The result is one line on
 * stdout starting with {@code BENCH-RESULT} (the format {@code io.lakestream.bench.e2.ChildReport}
 * parses).
 */
public final class SparkBronzeMain {
  /** Spark's RocksDB state store (the one Databricks recommends for production queries). */
  static final String ROCKSDB_STATE_STORE =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /** Spark's default state store: an in-memory map per partition, versioned to HDFS files. */
  static final String IN_MEMORY_STATE_STORE =
      "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";

  private SparkBronzeMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = KeyValueArgs.parse(args);
    int parallelism = Integer.parseInt(a.get("parallelism"));
    long records = Long.parseLong(a.get("records"));
    long distinct = Long.parseLong(a.get("distinct"));
    String table = a.get("table");

    long cpu0 = ProcessResources.cpuNanos();
    long t0 = System.nanoTime();
    SparkSession spark =
        LocalDeltaSpark.builder("e2-bronze-spark", parallelism)
            .config(
                "spark.sql.streaming.stateStore.providerClass",
                "rocksdb".equals(a.getOrDefault("stateStore", "rocksdb"))
                    ? ROCKSDB_STATE_STORE
                    : IN_MEMORY_STATE_STORE)
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    long sessionNanos = System.nanoTime() - t0;

    StructType schema =
        new StructType()
            .add("event_id", DataTypes.StringType)
            .add("order_id", DataTypes.StringType)
            .add("customer_id", DataTypes.StringType)
            .add("amount", DataTypes.createDecimalType(12, 2))
            .add("currency", DataTypes.StringType)
            .add("order_ts", DataTypes.TimestampType);

    Dataset<Row> orders =
        spark
            .readStream()
            .format("kafka")
            .option("kafka.bootstrap.servers", a.get("bootstrap"))
            .option("subscribe", a.get("topic"))
            .option("startingOffsets", "earliest")
            .load()
            .select(from_json(col("value").cast("string"), schema).alias("o"))
            .select("o.*")
            .withWatermark("order_ts", "1 hour")
            .dropDuplicatesWithinWatermark(new String[] {"event_id"});
    StreamingQuery query =
        orders
            .writeStream()
            .format("delta")
            .option("checkpointLocation", a.get("checkpoint"))
            .partitionBy("currency")
            .trigger(Trigger.AvailableNow())
            .start(table);
    query.awaitTermination();
    long nanos = System.nanoTime() - t0;
    long cpuNanos = ProcessResources.cpuNanos() - cpu0;
    long peakRss = ProcessResources.peakRssBytes();
    long peakHeap = ProcessResources.peakHeapBytes();

    long input = 0;
    int batches = 0;
    for (StreamingQueryProgress p : query.recentProgress()) {
      input += p.numInputRows();
      if (p.numInputRows() > 0) {
        batches++;
      }
    }
    Row check =
        spark
            .read()
            .format("delta")
            .load(table)
            .agg(count(lit(1)), countDistinct(col("event_id")))
            .first();
    long rows = check.getLong(0);
    long ids = check.getLong(1);
    spark.stop();
    if (input != records || rows != distinct || ids != distinct) {
      System.err.printf(
          Locale.ROOT,
          "Spark side FAILED its check: read %,d input rows (expected %,d), table holds %,d rows"
              + " with %,d distinct event ids (expected %,d)%n",
          input,
          records,
          rows,
          ids,
          distinct);
      System.exit(1);
    }
    System.out.printf(
        Locale.ROOT,
        "BENCH-RESULT rows=%d nanos=%d cpuNanos=%d peakRss=%d peakHeap=%d detail=%s%n",
        records,
        nanos,
        cpuNanos,
        peakRss,
        peakHeap,
        String.format(
            Locale.ROOT,
            "Spark %s local[%d], shuffle partitions %d, %s state store; session start %.2f s;"
                + " %d micro-batch(es) with input; table %,d rows = %,d distinct event ids",
            spark.version(),
            parallelism,
            parallelism,
            spark.conf().get("spark.sql.streaming.stateStore.providerClass").contains("RocksDB")
                ? "RocksDB"
                : "in-memory (HDFS-backed)",
            sessionNanos / 1e9,
            batches,
            rows,
            ids));
    System.exit(0);
  }
}
