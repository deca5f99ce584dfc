package io.lakestream.bench.e2;

import io.lakestream.bench.Bench;
import io.lakestream.bench.BenchOptions;
import io.lakestream.bench.BenchResult;
import io.lakestream.bench.Measurement;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 18: pipeline E2 written in Flink SQL ({@link OrdersBronzeSql}: the {@code spark-kafka}
 * table with JSON decoding and dead letters, a watermark, {@code DROP_DUPLICATES_WITHIN_WATERMARK},
 * the Delta sink) against the same pipeline in the DataStream API ({@link
 * io.lakestream.pipelines.bronze.OrdersBronze}), on the same topic, each in its own child JVM
 * ({@link LakestreamBronzeMain}, one after the other) with availableNow and RocksDB state. The
 * target is a ratio of at least 0.8: SQL may cost a little, not more. Both sides check their own
 * output (input rows, distinct rows in the table, no dead letters).
 */
public final class E2BronzeSqlBench implements Bench {
  @Override
  public String id() {
    return "e2-bronze-sql";
  }

  @Override
  public String description() {
    return "pipeline E2 in Flink SQL (spark-kafka json -> watermark ->"
        + " DROP_DUPLICATES_WITHIN_WATERMARK -> delta)"
        + " vs the same pipeline in the DataStream API, availableNow, own JVMs";
  }

  @Override
  public long defaultRows() {
    return 2_000_000;
  }

  @Override
  public boolean warmsUp() {
    return false; // every side is a fresh JVM
  }

  @Override
  public BenchResult run(BenchOptions options) throws Exception {
    List<String> javaOptions = ChildJvm.defaultJavaOptions();
    Path dir = options.workDir();
    Files.createDirectories(dir);
    OrderRecords input = new OrderRecords(options.rows());
    try (KafkaBroker broker = KafkaBroker.start()) {
      List<String> common = E2BronzeBench.produce(broker, input, options.parallelism(), id());
      System.err.println("e2-bronze-sql: DataStream API...");
      Measurement dataStream =
          side(common, "datastream", dir, "peer: OrdersBronze, DataStream API", javaOptions);
      System.err.println("e2-bronze-sql: Flink SQL...");
      Measurement sql = side(common, "sql", dir, "lakestream: E2 in Flink SQL", javaOptions);
      return new BenchResult(
          id(),
          sql,
          dataStream,
          List.of(),
          List.of(
              String.format(
                  Locale.ROOT,
                  "input: %,d JSON records (%,d distinct events + %,d duplicates, all within the"
                      + " 1 h watermark) in topic '%s' with %d partitions; produced once, not"
                      + " timed",
                  input.records(),
                  input.distinct(),
                  input.records() - input.distinct(),
                  E2BronzeBench.TOPIC,
                  E2BronzeBench.PARTITIONS),
              "each side ran alone in its own child JVM ("
                  + String.join(" ", javaOptions)
                  + "), DataStream first; wall s = the query's start (embedded cluster included)"
                  + " to the end of awaitTermination; RocksDB state on both sides",
              "dedup: both sides drop duplicates within the 1 h watermark with the same operator"
                  + " (dropDuplicatesWithinWatermark; in SQL a DROP_DUPLICATES_WITHIN_WATERMARK"
                  + " view)"));
    }
  }

  private static Measurement side(
      List<String> common, String variant, Path dir, String label, List<String> javaOptions)
      throws Exception {
    List<String> args = new ArrayList<>(common);
    args.add("lake=" + dir.resolve(variant));
    args.add("variant=" + variant);
    return new ChildJvm(
            label,
            javaOptions,
            System.getProperty("java.class.path"),
            LakestreamBronzeMain.class.getName(),
            dir.resolve(variant + ".log"))
        .run(args);
  }
}
