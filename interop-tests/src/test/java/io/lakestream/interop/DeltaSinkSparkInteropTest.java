package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Tables written by the Flink Delta sink (bounded Flink jobs on a local MiniCluster, checkpoint =
 * epoch every 150 ms) read with delta-spark, the reference reader: exactly the rows written, one
 * table version per epoch, and Spark's txn map at the last epoch.
 */
class DeltaSinkSparkInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final LocalDate DAY = LocalDate.parse("2024-05-01");
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static DeltaTableSchema.Builder events() {
    return DeltaTableSchema.builder()
        .column("id", ColumnType.LONG, false)
        .column("name", ColumnType.STRING)
        .column("day", ColumnType.DATE);
  }

  private static Object[] event(long id) {
    return new Object[] {id, "n" + id, DAY.plusDays(id % 3)};
  }

  private static String expected(long id, String score) {
    return id + "|n" + id + "|" + DAY.plusDays(id % 3) + (score == null ? "" : "|" + score);
  }

  private static QueryContext query(String id, OutputMode mode) {
    return new QueryContext(
        id, "interop", "run", "interop-" + id, "file:///unused", false, false, mode);
  }

  /**
   * Runs a bounded Flink job: ids {@code from .. from+rows-1} at {@code rowsPerSecond}, through
   * {@code middle}, into the Delta sink built by {@code sink}; returns when the job finished.
   */
  private static <T> void runJob(
      long from,
      long rows,
      int rowsPerSecond,
      java.util.function.Function<DataStream<Long>, DataStream<T>> middle,
      EpochSink<T, DeltaWrittenFile> sink)
      throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    DataGeneratorSource<Long> source =
        new DataGeneratorSource<>(
            i -> from + i, rows, RateLimiterStrategy.perSecond(rowsPerSecond), Types.LONG);
    DataStream<Long> ids =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "ids").uid("ids");
    middle.apply(ids).sinkTo(sink).uid("delta");
    env.execute("interop");
  }

  private static <T> EpochSink<T, DeltaWrittenFile> sink(
      String path,
      DeltaTableSchema schema,
      RowFields<T> fields,
      QueryContext query,
      boolean mergeSchema) {
    return DeltaSinkBuilder.forTable(path, schema, fields)
        .query(query)
        .sinkName("delta")
        .mergeSchema(mergeSchema)
        .build();
  }

  private static void appendJob(
      String path, DeltaTableSchema schema, String queryId, long from, long rows, boolean merge)
      throws Exception {
    appendJob(path, schema, queryId, from, rows, 300, merge);
  }

  private static void appendJob(
      String path,
      DeltaTableSchema schema,
      String queryId,
      long from,
      long rows,
      int rowsPerSecond,
      boolean merge)
      throws Exception {
    boolean withScore = schema.columns().size() == 4;
    RowFields<Long> fields =
        id ->
            withScore
                ? new Object[] {id, "n" + id, DAY.plusDays(id % 3), (int) (id * 10)}
                : event(id);
    runJob(
        from,
        rows,
        rowsPerSecond,
        s -> s,
        sink(path, schema, fields, query(queryId, OutputMode.APPEND), merge));
  }

  private static List<String> sparkRows(String path, String... columns) {
    return spark.read().format("delta").load(path).selectExpr(columns).collectAsList().stream()
        .map(
            r -> {
              StringBuilder b = new StringBuilder();
              for (int i = 0; i < r.length(); i++) {
                b.append(i == 0 ? "" : "|").append(r.isNullAt(i) ? "null" : r.get(i).toString());
              }
              return b.toString();
            })
        .toList();
  }

  /** The commit JSON of each version, in version order. */
  private static Map<Long, List<JsonNode>> commits(String path) throws IOException {
    Map<Long, List<JsonNode>> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(Path.of(path, "_delta_log"))) {
      for (Path f :
          files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).toList()) {
        List<JsonNode> actions = new ArrayList<>();
        for (String line : Files.readAllLines(f)) {
          actions.add(JSON.readTree(line));
        }
        out.put(Long.parseLong(f.getFileName().toString().substring(0, 20)), actions);
      }
    }
    return out;
  }

  /**
   * Every version that adds data carries exactly one txn of {@code appIds}, epochs increase per app
   * id, {@code DESCRIBE HISTORY} lists each version once (a streaming write's with Spark's
   * operation parameters: its query id and epoch id are the txn's), and Spark's txn map holds each
   * app id's last epoch.
   *
   * @return the number of epochs committed per app id
   */
  private static Map<String, Integer> assertOneVersionPerEpoch(String path, String... appIds)
      throws IOException {
    Map<Long, List<JsonNode>> commits = commits(path);
    Map<String, Long> lastEpoch = new TreeMap<>();
    Map<String, Integer> epochs = new TreeMap<>();
    for (Map.Entry<Long, List<JsonNode>> version : commits.entrySet()) {
      List<JsonNode> txns = version.getValue().stream().filter(a -> a.has("txn")).toList();
      boolean addsData = version.getValue().stream().anyMatch(a -> a.has("add"));
      if (!addsData) {
        assertThat(txns).as("version %s without data", version.getKey()).isEmpty();
        continue;
      }
      assertThat(txns).as("txn of version %s", version.getKey()).hasSize(1);
      String appId = txns.get(0).get("txn").get("appId").asText();
      long epoch = txns.get(0).get("txn").get("version").asLong();
      assertThat(appId).isIn((Object[]) appIds);
      Long previous = lastEpoch.put(appId, epoch);
      if (previous != null) {
        assertThat(epoch).as("epochs of %s increase", appId).isGreaterThan(previous);
      }
      epochs.merge(appId, 1, Integer::sum);
    }
    List<Row> history = spark.sql("DESCRIBE HISTORY delta.`" + path + "`").collectAsList();
    assertThat(history)
        .extracting(r -> r.getLong(0))
        .containsExactlyInAnyOrderElementsOf(commits.keySet());
    for (Row version : history) {
      commits.get(version.getLong(0)).stream()
          .filter(a -> a.has("txn"))
          .forEach(
              txn -> {
                assertThat(version.<String>getAs("operation")).isEqualTo("STREAMING UPDATE");
                Map<String, String> parameters =
                    version.getJavaMap(version.fieldIndex("operationParameters"));
                assertThat(parameters)
                    .containsEntry("queryId", txn.get("txn").get("appId").asText())
                    .containsEntry("epochId", txn.get("txn").get("version").asText())
                    .containsKey("outputMode");
              });
    }
    DeltaLog.clearCache();
    Map<String, Object> txnMap =
        CollectionConverters.asJava(DeltaLog.forTableWithSnapshot(spark, path)._2().transactions());
    assertThat(txnMap).containsOnlyKeys(lastEpoch.keySet());
    lastEpoch.forEach((app, epoch) -> assertThat(txnMap.get(app)).isEqualTo(epoch));
    return epochs;
  }

  @Test
  void partitionedTable() throws Exception {
    String path = dir.resolve("partitioned").toString();
    appendJob(
        path, events().partitionedBy("day").build(), "q-part", 0, 300, false); // ~1 s at 300/s
    assertThat(sparkRows(path, "id", "name", "day"))
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, 300).mapToObj(id -> expected(id, null)).toList());
    assertThat(spark.read().format("delta").load(path).where("day = DATE'2024-05-02'").count())
        .isEqualTo(100);
    assertThat(dir.resolve("partitioned/day=2024-05-03")).isDirectory();
    assertThat(assertOneVersionPerEpoch(path, "interop-q-part").get("interop-q-part"))
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void changeDataFeedTable() throws Exception {
    String path = dir.resolve("cdf").toString();
    appendJob(
        path,
        events().property("delta.enableChangeDataFeed", "true").build(),
        "q-cdf",
        0,
        200,
        false);
    List<Row> changes =
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 1)
            .load(path)
            .select("id", "_change_type")
            .collectAsList();
    assertThat(changes)
        .extracting(r -> r.getLong(0))
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, 200).boxed().toList());
    assertThat(changes).extracting(r -> r.getString(1)).containsOnly("insert");
    long latest = commits(path).keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(
            spark
                .sql(
                    "SELECT count(*) FROM table_changes_by_path('" + path + "', 1, " + latest + ")")
                .collectAsList()
                .get(0)
                .getLong(0))
        .isEqualTo(200);
    assertThat(sparkRows(path, "id", "name", "day")).hasSize(200);
    assertOneVersionPerEpoch(path, "interop-q-cdf");
  }

  /** Runs 1 writes v1 rows, run 2 (another query) adds the column score with mergeSchema. */
  private void evolves(String name, boolean firstRunMerges) throws Exception {
    String path = dir.resolve(name).toString();
    appendJob(
        path, events().partitionedBy("day").build(), "q-" + name + "-1", 0, 120, firstRunMerges);
    DeltaTableSchema v2 = events().column("score", ColumnType.INT).partitionedBy("day").build();
    appendJob(path, v2, "q-" + name + "-2", 1000, 120, true);
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 120; id++) {
      expected.add(expected(id, "null"));
      expected.add(expected(1000 + id, String.valueOf((1000 + id) * 10)));
    }
    assertThat(sparkRows(path, "id", "name", "day", "score"))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(spark.read().format("delta").load(path).schema().fieldNames())
        .containsExactly("id", "name", "day", "score");
    assertThat(spark.read().format("delta").load(path).where("score IS NULL").count())
        .isEqualTo(120);
    assertOneVersionPerEpoch(path, "interop-q-" + name + "-1", "interop-q-" + name + "-2");
  }

  @Test
  void schemaEvolutionOfATableCreatedWithMergeSchema() throws Exception {
    evolves("merge-from-start", true);
  }

  @Test
  void schemaEvolutionOfAPlainTable() throws Exception {
    evolves("merge-later", false);
  }

  /**
   * Complete mode: a running count per key, the whole result emitted each epoch. Spark must see
   * exactly the final counts (leftovers of earlier epochs would show as repeated keys), and every
   * version holds one full result.
   */
  @Test
  void completeModeKeepsOnlyTheLastEpochsResult() throws Exception {
    String path = dir.resolve("complete").toString();
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("key", ColumnType.STRING, false)
            .column("n", ColumnType.LONG, false)
            .build();
    RowFields<Tuple2<String, Long>> fields = t -> new Object[] {t.f0, t.f1};
    TypeInformation<Tuple2<String, Long>> type = Types.TUPLE(Types.STRING, Types.LONG);
    runJob(
        0,
        500,
        250,
        s -> s.transform("counts", type, new FullCountsEachEpoch()).setParallelism(1).uid("counts"),
        sink(path, schema, fields, query("q-complete", OutputMode.COMPLETE), false));
    assertThat(sparkRows(path, "key", "n"))
        .containsExactlyInAnyOrder("k0|100", "k1|100", "k2|100", "k3|100", "k4|100");
    Map<String, Integer> epochs = assertOneVersionPerEpoch(path, "interop-q-complete");
    assertThat(epochs.get("interop-q-complete")).isGreaterThanOrEqualTo(2);
    // Every version holds exactly the files it added (replaying the log), so no epoch's result
    // mixes with an earlier one's; Spark's time travel to the first result agrees.
    Map<Long, List<JsonNode>> commits = commits(path);
    java.util.Set<String> live = new java.util.HashSet<>();
    long firstData = -1;
    for (Map.Entry<Long, List<JsonNode>> version : commits.entrySet()) {
      java.util.Set<String> added = new java.util.HashSet<>();
      for (JsonNode a : version.getValue()) {
        if (a.has("remove")) {
          assertThat(a.get("remove").get("dataChange").asBoolean()).isTrue();
          live.remove(a.get("remove").get("path").asText());
        }
        if (a.has("add")) {
          added.add(a.get("add").get("path").asText());
          live.add(a.get("add").get("path").asText());
        }
      }
      if (!added.isEmpty()) {
        firstData = firstData < 0 ? version.getKey() : firstData;
        assertThat(live).as("files live after version %s", version.getKey()).isEqualTo(added);
      }
    }
    List<Row> first =
        spark.read().format("delta").option("versionAsOf", firstData).load(path).collectAsList();
    assertThat(first).extracting(r -> r.getString(0)).doesNotHaveDuplicates();
    assertThat(first.stream().mapToLong(r -> r.getLong(1)).sum()).isBetween(1L, 500L);
  }

  @Test
  void logCheckpointsAreWrittenAndReadBySpark() throws Exception {
    String path = dir.resolve("checkpointed").toString();
    appendJob(
        path,
        events().property("delta.checkpointInterval", "2").build(),
        "q-ckpt",
        0,
        400,
        150,
        false);
    List<Path> checkpoints;
    try (Stream<Path> files = Files.list(dir.resolve("checkpointed/_delta_log"))) {
      checkpoints =
          files.filter(p -> p.getFileName().toString().endsWith(".checkpoint.parquet")).toList();
    }
    assertThat(checkpoints).hasSizeGreaterThanOrEqualTo(2);
    DeltaLog.clearCache();
    var snapshot = DeltaLog.forTableWithSnapshot(spark, path)._2();
    assertThat(snapshot.checkpointProvider().version()).isPositive();
    assertThat(sparkRows(path, "id", "name", "day"))
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, 400).mapToObj(id -> expected(id, null)).toList());
    assertOneVersionPerEpoch(path, "interop-q-ckpt");
  }

  /**
   * Test operator for complete mode: counts ids per key ({@code id % 5}) and emits the whole result
   * before every checkpoint barrier and at the end of input. Parallelism 1, no failures in these
   * tests, so the counts need no Flink state.
   */
  static final class FullCountsEachEpoch extends AbstractStreamOperator<Tuple2<String, Long>>
      implements OneInputStreamOperator<Long, Tuple2<String, Long>>, BoundedOneInput {
    private final TreeMap<String, Long> counts = new TreeMap<>();
    private boolean ended;

    @Override
    public void processElement(StreamRecord<Long> element) {
      counts.merge("k" + (element.getValue() % 5), 1L, Long::sum);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) {
      if (!ended) {
        emitAll();
      }
    }

    @Override
    public void endInput() {
      emitAll();
      ended = true;
    }

    private void emitAll() {
      counts.forEach((k, n) -> output.collect(new StreamRecord<>(Tuple2.of(k, n))));
    }
  }
}
