package io.lakestream.bench.e2;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.bronze.OrdersBronze;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The lakestream side of {@code bin/bench e2-bronze}, in its own JVM: pipeline E2 ({@link
 * OrdersBronze}) through {@link StreamingQueryBuilder} with {@code Trigger.availableNow()} on the
 * embedded runtime, the product's defaults otherwise (RocksDB state, exactly-once checkpoints).
 *
 * <p>Arguments are {@code key=value}: {@code bootstrap}, {@code topic}, {@code lake} (output
 * directory), {@code parallelism}, {@code records}, {@code distinct}, optionally {@code
 * stateBackend} ({@code rocksdb}, the default, or {@code hashmap}), and any number of {@code
 * source.<option>=value} passed to the Kafka source (e.g. {@code source.kafka.max.poll.records}).
 * The clock runs from {@code start()} (so it includes starting the embedded Flink cluster and
 * deploying the job) to the end of {@code awaitTermination()}. Afterwards the bronze table must
 * hold exactly {@code distinct} rows, the dead-letter table none, and the query must report {@code
 * records} input rows, else the process exits 1.
 *
 * <p>{@code variant=sql} runs the same pipeline written in Flink SQL ({@link OrdersBronzeSql})
 * instead of the DataStream one, into the same tables.
 */
public final class LakestreamBronzeMain {
  private LakestreamBronzeMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = ChildArgs.parse(args);
    long records = Long.parseLong(a.get("records"));
    long distinct = Long.parseLong(a.get("distinct"));
    int parallelism = Integer.parseInt(a.get("parallelism"));
    Path lake = Path.of(a.get("lake")).toAbsolutePath();
    Map<String, String> source = new LinkedHashMap<>();
    source.put("kafka.bootstrap.servers", a.get("bootstrap"));
    source.put("subscribe", a.get("topic"));
    source.put("startingOffsets", "earliest");
    a.forEach(
        (k, v) -> {
          if (k.startsWith("source.")) {
            source.put(k.substring("source.".length()), v);
          }
        });
    PipelineOptions options = new PipelineOptions(lake.toUri(), 0, 0, 0, source);
    StateBackendSettings state = StateBackendSettings.defaults();
    if (a.containsKey("stateBackend")) {
      state = state.withBackend(StateBackendSettings.Backend.parse(a.get("stateBackend")));
    }

    long cpu0 = ChildReport.processCpuNanos();
    long t0 = System.nanoTime();
    boolean sql = a.getOrDefault("variant", "datastream").equals("sql");
    Dataflow dataflow =
        sql
            ? OrdersBronzeSql.dataflow(lake, source)
            : OrdersBronze.dataflow(options, UnaryOperator.identity());
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow)
            .queryName("bronze")
            .checkpointLocation(lake.resolve("_checkpoints/bronze").toString())
            .trigger(Trigger.availableNow())
            .parallelism(parallelism)
            .stateBackend(state)
            .start();
    query.awaitTermination();
    long nanos = System.nanoTime() - t0;
    long cpu = ChildReport.processCpuNanos() - cpu0;
    long peakRss = ChildReport.peakRssBytes();
    long peakHeap = ChildReport.peakHeapBytes();

    long input = 0;
    int epochs = 0;
    for (QueryProgress p : query.recentProgress()) {
      input += p.numInputRows();
      if (p.numInputRows() > 0) {
        epochs++;
      }
    }
    DeltaTableReader bronze =
        new DeltaTableReader(DeltaTable.forPath(lake.resolve("orders_bronze").toUri().toString()));
    long rows = bronze.count();
    long version = bronze.latestVersion();
    long deadLetters = deadLetters(lake.resolve("orders_bronze_dead_letters"));
    if (input != records || rows != distinct || deadLetters != 0) {
      System.err.printf(
          Locale.ROOT,
          "lakestream side FAILED its check: read %,d input rows (expected %,d), orders_bronze"
              + " holds %,d rows (expected %,d distinct events), %,d dead letters (expected 0)%n",
          input,
          records,
          rows,
          distinct,
          deadLetters);
      System.exit(1);
    }
    ChildReport.print(
        records,
        nanos,
        cpu,
        peakRss,
        peakHeap,
        String.format(
            Locale.ROOT,
            "%s via StreamingQueryBuilder, availableNow, p=%d, %s state;"
                + " %d epoch(s) with input, Delta version %d; table %,d rows = distinct events;"
                + " source options %s",
            sql ? "OrdersBronze in Flink SQL" : "OrdersBronze",
            parallelism,
            state.backend(),
            epochs,
            version,
            rows,
            source.keySet().stream()
                .filter(k -> !k.equals("kafka.bootstrap.servers"))
                .map(k -> k + "=" + source.get(k))
                .toList()));
    System.exit(0);
  }

  /** The rows of the dead-letter table: a Delta table (the SQL variant) or JSON lines. */
  static long deadLetters(Path table) throws Exception {
    if (!Files.exists(table)) {
      return 0;
    }
    if (Files.isDirectory(table.resolve("_delta_log"))) {
      return new DeltaTableReader(DeltaTable.forPath(table.toUri().toString())).count();
    }
    long n = 0;
    try (Stream<Path> files = Files.walk(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        n += Files.readAllLines(f).size();
      }
    }
    return n;
  }
}
