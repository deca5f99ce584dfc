package io.lakestream.bench.e2;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.BenchServices;
import io.lakestream.bench.Measurement;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 5: pipeline E2 (Kafka JSON orders -> from_json -> watermark 1 h + dropDuplicatesWithin
 * Watermark(event_id) -> Delta, trigger availableNow) on lakestream against Spark Structured
 * Streaming + delta-spark running the same query, on the same topic, with a plain KafkaConsumer
 * loop as the ceiling.
 *
 * <p>This JVM starts the testkit Kafka broker, creates a topic with {@value #PARTITIONS} partitions
 * and produces the records once (not timed); then each side runs alone in its own child JVM, one
 * after the other: the raw consumer, lakestream ({@link LakestreamBronzeMain}), Spark ({@code
 * io.lakestream.bench.spark.SparkBronzeMain} from the {@code bench-spark} module, built with {@code
 * -Pspark-bench}). Every side checks its own output (record and row counts) and the bench fails if
 * one does not add up.
 *
 * <p>Environment: {@code BENCH_CHILD_JAVA_OPTS} (default {@code -Xmx2g}) for each child JVM; {@code
 * BENCH_E2_SOURCE_OPTIONS} ({@code k=v,k=v}) extra options of lakestream's Kafka source.
 */
public final class E2BronzeBench implements Bench {
  static final int PARTITIONS = 4;
  static final String TOPIC = "orders";
  static final String SPARK_MAIN = "io.lakestream.bench.spark.SparkBronzeMain";

  @Override
  public String id() {
    return "e2-bronze";
  }

  @Override
  public String description() {
    return "pipeline E2 Kafka -> from_json -> watermark + dedup -> Delta, availableNow: lakestream"
        + " vs Spark 4.2 + delta-spark 4.4 (own JVMs), raw KafkaConsumer as ceiling";
  }

  @Override
  public long defaultRows() {
    return 2_000_000;
  }

  @Override
  public boolean warmsUp() {
    return false; // every side is a fresh JVM: a warm-up round in this JVM would warm nothing
  }

  @Override
  public void check(BenchServices services) throws Exception {
    services.kafka();
    services.load(LakestreamBronzeMain.class.getName());
    services.load(RawConsumerMain.class.getName());
    services.sparkClasspath();
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath();
    String sparkClasspath = sparkClasspath(root);
    String ownClasspath = System.getProperty("java.class.path");
    List<String> javaOptions = ChildJvm.defaultJavaOptions();
    Path dir = options.workDir();
    Files.createDirectories(dir);
    OrderRecords input = new OrderRecords(options.rows());
    int p = options.parallelism();

    try (KafkaBroker broker = KafkaBroker.start()) {
      List<String> common = produce(broker, input, p, id());
      long produced = input.records();

      System.err.println("e2-bronze: raw KafkaConsumer loop...");
      Measurement raw =
          new ChildJvm(
                  "ceiling: raw KafkaConsumer loop",
                  javaOptions,
                  ownClasspath,
                  RawConsumerMain.class.getName(),
                  dir.resolve("raw-consumer.log"))
              .run(common);

      System.err.println("e2-bronze: lakestream...");
      List<String> lakeArgs = new ArrayList<>(common);
      lakeArgs.add("lake=" + dir.resolve("lakestream"));
      for (String kv : System.getenv().getOrDefault("BENCH_E2_SOURCE_OPTIONS", "").split(",")) {
        if (!kv.isBlank()) {
          lakeArgs.add("source." + kv.trim());
        }
      }
      // Like for like: both sides keep state in RocksDB (lakestream's default, the state store
      // Databricks recommends) or both in memory (hashmap vs Spark's HDFS-backed default).
      String backend = System.getenv().getOrDefault("BENCH_E2_STATE_BACKEND", "rocksdb").trim();
      if (!backend.equals("rocksdb") && !backend.equals("hashmap")) {
        throw new IllegalArgumentException(
            "BENCH_E2_STATE_BACKEND must be rocksdb or hashmap, was " + backend);
      }
      lakeArgs.add("stateBackend=" + backend);
      Measurement ours =
          new ChildJvm(
                  "lakestream: OrdersBronze (E2)",
                  javaOptions,
                  ownClasspath,
                  LakestreamBronzeMain.class.getName(),
                  dir.resolve("lakestream.log"))
              .run(lakeArgs);

      System.err.println("e2-bronze: Spark...");
      List<String> sparkArgs = new ArrayList<>(common);
      sparkArgs.add("table=" + dir.resolve("spark/orders_bronze"));
      sparkArgs.add("checkpoint=" + dir.resolve("spark/_checkpoints/bronze"));
      sparkArgs.add("stateStore=" + (backend.equals("rocksdb") ? "rocksdb" : "memory"));
      Measurement spark =
          new ChildJvm(
                  "peer: Spark Structured Streaming + delta-spark",
                  javaOptions,
                  sparkClasspath,
                  SPARK_MAIN,
                  dir.resolve("spark.log"))
              .run(sparkArgs);

      return new BenchResult(
          id(),
          withCeilingShare(ours, raw),
          withCeilingShare(spark, raw),
          List.of(raw),
          List.of(
              String.format(
                  Locale.ROOT,
                  "input: %,d JSON records (%,d distinct events + %,d duplicates, all within the"
                      + " 1 h watermark) in topic '%s' with %d partitions on the testkit broker"
                      + " (Kafka %s, same machine); produced once, not timed",
                  produced,
                  input.distinct(),
                  produced - input.distinct(),
                  TOPIC,
                  PARTITIONS,
                  "4.1.1"),
              "each side ran alone in its own child JVM ("
                  + String.join(" ", javaOptions)
                  + ")"
                  + ", in the order ceiling, lakestream, Spark; wall s = the query's start to the"
                  + " end of awaitTermination (the raw loop: consumer creation to last record);"
                  + " CPU s and peak RSS/heap are the child JVM's own (peaks since the JVM"
                  + " started, read before any verification)",
              String.format(
                  Locale.ROOT,
                  "ceiling share (records/s / the raw KafkaConsumer loop's): lakestream %.0f%%,"
                      + " Spark %.0f%%",
                  100 * ceilingShare(ours, raw),
                  100 * ceilingShare(spark, raw)),
              String.format(
                  Locale.ROOT,
                  "CPU-µs per record (process CPU / records): lakestream %.1f, Spark %.1f, raw"
                      + " KafkaConsumer loop %.1f",
                  cpuMicrosPerRecord(ours),
                  cpuMicrosPerRecord(spark),
                  cpuMicrosPerRecord(raw))));
    }
  }

  /** The side's records/s as a share of the raw KafkaConsumer loop's (the ceiling). */
  static double ceilingShare(Measurement side, Measurement ceiling) {
    return side.rowsPerSecond() / ceiling.rowsPerSecond();
  }

  static double cpuMicrosPerRecord(Measurement side) {
    return side.cpuNanos() / 1e3 / side.rows();
  }

  /** The measurement with its ceiling share at the head of its detail column. */
  private static Measurement withCeilingShare(Measurement side, Measurement ceiling) {
    return new Measurement(
        side.side(),
        side.rows(),
        side.nanos(),
        side.cpuNanos(),
        side.peakRssBytes(),
        side.peakHeapBytes(),
        String.format(
                Locale.ROOT,
                "%.0f%% of the raw KafkaConsumer ceiling's records/s; %.1f CPU-µs/record; ",
                100 * ceilingShare(side, ceiling),
                cpuMicrosPerRecord(side))
            + side.detail());
  }

  /**
   * Creates the topic on {@code broker} and produces {@code input} to it once (not timed); returns
   * the arguments every child JVM takes: bootstrap, topic, parallelism, records, distinct.
   *
   * @throws IllegalStateException if the topic does not hold every record produced
   */
  static List<String> produce(KafkaBroker broker, OrderRecords input, int parallelism, String id) {
    broker.createTopic(TOPIC, PARTITIONS);
    System.err.printf(
        Locale.ROOT,
        "%s: producing %,d records (%,d distinct events) to %d partitions...%n",
        id,
        input.records(),
        input.distinct(),
        PARTITIONS);
    long produced = input.produce(broker.bootstrapServers(), TOPIC);
    long inTopic = broker.endOffsets(TOPIC).values().stream().mapToLong(Long::longValue).sum();
    if (produced != input.records() || inTopic != produced) {
      throw new IllegalStateException(
          "produced " + produced + " records but the topic holds " + inTopic);
    }
    return List.of(
        "bootstrap=" + broker.bootstrapServers(),
        "topic=" + TOPIC,
        "parallelism=" + parallelism,
        "records=" + produced,
        "distinct=" + input.distinct());
  }

  /** The Spark side's classpath, built by bin/bench with {@code -Pspark-bench}. */
  public static String sparkClasspath(Path root) throws IOException {
    Path classes = root.resolve("bench-spark/target/classes");
    Path cpFile = root.resolve("bench-spark/target/bench-spark.classpath");
    if (!Files.isDirectory(classes) || !Files.exists(cpFile)) {
      throw new IllegalStateException(
          "The Spark side is not built ("
              + cpFile
              + " is missing). Run bin/bench e2-bronze, merge or merge-dv, which build it, or build"
              + " it with: mvn -Pspark-bench -pl bench-spark package -Dmaven.test.skip=true");
    }
    return classes + ":" + Files.readString(cpFile).trim();
  }
}
