package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.files.RowEncoder;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.DeclaresStateSchema;
import io.lakestream.state.query.DescribedSink;
import io.lakestream.state.query.SinkKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The query the guard tests run and change: rate source(s) of row indexes {@code 0..rows-1} in two
 * partitions -> optional filter -> a keyed running count per {@code row % 4} (ValueState) ->
 * optional projection -> a JSON-lines table or a test sink. Every row comes out as {@code
 * {"row":i,"key":k,"count":c}}, where {@code c} is how many rows of key {@code k} the query has
 * counted so far, across runs: a resumed run must continue the counts, a fresh one would restart
 * them at 1.
 *
 * <p>Each key's rows come from one partition in index order, so the counts are deterministic and
 * {@link CountModel} predicts them exactly.
 */
final class GuardsFixture {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final int KEYS = 4;
  static final String SOURCE = "numbers";
  static final String COUNTER = "count-per-key";
  static final String SINK = "counts-sink";
  static final String RELAY = "relay";
  static final String SCHEMA_V1 = "count: ValueState<Long>; v1";
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

  /** Rows received by the test sinks, per collector name (the MiniCluster runs in this JVM). */
  static final Map<String, Queue<String>> COLLECTED = new ConcurrentHashMap<>();

  private GuardsFixture() {}

  /** Where a {@link Flow} writes. */
  enum SinkChoice {
    /** The exactly-once JSON-lines table (a FILE sink) with commit records. */
    JSON_LINES,
    /** A test sink of kind FILE collecting rows in memory. */
    TEST_FILE,
    /** A test sink of kind KAFKA collecting rows in memory. */
    TEST_KAFKA
  }

  /** The query's shape; every setter returns a changed copy. */
  static final class Flow implements Cloneable {
    final String table;
    List<String> sources = List.of(SOURCE);
    long rows = 200;
    long rowsPerSecond;
    long maxRowsPerTrigger;
    boolean filter;
    boolean projection;
    boolean stringKey;
    String schema = SCHEMA_V1;
    SinkChoice sink = SinkChoice.JSON_LINES;
    String collector = "default";
    String withoutUid;
    boolean fromData;
    boolean relay;
    boolean counter = true;

    Flow(Path table) {
      this.table = table.toString();
    }

    private Flow copy() {
      try {
        return (Flow) clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }

    Flow rows(long n) {
      Flow f = copy();
      f.rows = n;
      return f;
    }

    Flow rowsPerSecond(long n) {
      Flow f = copy();
      f.rowsPerSecond = n;
      return f;
    }

    Flow maxRowsPerTrigger(long n) {
      Flow f = copy();
      f.maxRowsPerTrigger = n;
      return f;
    }

    Flow sources(String... uids) {
      Flow f = copy();
      f.sources = List.of(uids);
      return f;
    }

    /** Adds a filter before the stateful operator, dropping {@link #dropped(long)} rows. */
    Flow withFilter() {
      Flow f = copy();
      f.filter = true;
      return f;
    }

    /** Adds a projection after the stateful operator, dropping the key field. */
    Flow withProjection() {
      Flow f = copy();
      f.projection = true;
      return f;
    }

    Flow stringKey() {
      Flow f = copy();
      f.stringKey = true;
      return f;
    }

    Flow schema(String s) {
      Flow f = copy();
      f.schema = s;
      return f;
    }

    Flow sink(SinkChoice choice, String collectorName) {
      Flow f = copy();
      f.sink = choice;
      f.collector = collectorName;
      return f;
    }

    /** Adds a stateful operator ({@link #RELAY}, keyed, passing rows on) before the counter. */
    Flow withRelay() {
      Flow f = copy();
      f.relay = true;
      return f;
    }

    /** Removes the stateful counter: rows are written with count 0 by a stateless map. */
    Flow withoutCounter() {
      Flow f = copy();
      f.counter = false;
      return f;
    }

    /** Leaves out the uid of the operator named {@code name}. */
    Flow withoutUid(String name) {
      Flow f = copy();
      f.withoutUid = name;
      return f;
    }

    /** Replaces the rate source by {@code env.fromData(...)}, which cannot do availableNow. */
    Flow fromData() {
      Flow f = copy();
      f.fromData = true;
      return f;
    }

    Dataflow dataflow() {
      return (env, query) -> {
        DataStream<Long> input = null;
        for (String uid : sources) {
          SingleOutputStreamOperator<Long> source;
          if (fromData) {
            source = env.fromData(0L, 1L, 2L, 3L).name(uid);
          } else {
            source =
                env.fromSource(
                    RateSourceBuilder.rate(uid, new RowIndex(), Types.LONG)
                        .rows(rows)
                        .numPartitions(2)
                        .rowsPerSecond(rowsPerSecond)
                        .maxRowsPerTrigger(maxRowsPerTrigger)
                        .query(query)
                        .build(),
                    WatermarkStrategy.noWatermarks(),
                    uid);
          }
          uid(source, uid, uid);
          input = input == null ? source : input.union(source);
        }
        if (filter) {
          input = uid(input.filter(new DropSome()).name("drop some"), "drop-some", "drop some");
        }
        if (relay) {
          input =
              uid(
                  input
                      .keyBy(new LongKey(), Types.LONG)
                      .process(new Relay(), Types.LONG)
                      .name("relay"),
                  RELAY,
                  "relay");
        }
        SingleOutputStreamOperator<String> counted;
        if (!counter) {
          counted =
              uid(
                  input.map(new Uncounted(), Types.STRING).name("uncounted"),
                  "uncounted",
                  "uncounted");
        } else {
          counted =
              stringKey
                  ? input
                      .keyBy(new StringKey(), Types.STRING)
                      .process(new CountPerKey<>(schema), Types.STRING)
                  : input
                      .keyBy(new LongKey(), Types.LONG)
                      .process(new CountPerKey<>(schema), Types.STRING);
          counted = uid(counted.name("count per key"), COUNTER, "count per key");
        }
        if (projection) {
          counted =
              uid(
                  counted.map(new DropKeyField(), Types.STRING).name("project"),
                  "project",
                  "project");
        }
        DataStreamSink<String> sunk =
            switch (sink) {
              case JSON_LINES ->
                  counted.sinkTo(
                      JsonLinesFileSink.create(
                          table,
                          new LineAsIs(),
                          new CommitRecordListener(query, SINK, "json-lines " + table)));
              case TEST_FILE ->
                  counted.sinkTo(
                      new CollectingSink(
                          SinkKind.FILE, Path.of(table).toUri().toString(), collector));
              case TEST_KAFKA ->
                  counted.sinkTo(new CollectingSink(SinkKind.KAFKA, "topic counts", collector));
            };
        sunk.name("counts table");
        if (!"counts table".equals(withoutUid)) {
          sunk.uid(SINK);
        }
      };
    }

    private <T> SingleOutputStreamOperator<T> uid(
        SingleOutputStreamOperator<T> op, String uid, String name) {
      return name.equals(withoutUid) ? op : op.uid(uid);
    }
  }

  /** Whether the filter of {@link Flow#withFilter()} drops row {@code row}. */
  static boolean dropped(long row) {
    return row % 5 == 3;
  }

  /** Starts {@code flow} on {@code location} (hashmap state unless given). */
  static StreamingQuery start(Path location, Flow flow, Trigger trigger, int parallelism)
      throws Exception {
    return start(location, flow, trigger, parallelism, hashmap());
  }

  static StreamingQuery start(
      Path location, Flow flow, Trigger trigger, int parallelism, StateBackendSettings state)
      throws Exception {
    return StreamingQueryBuilder.of(flow.dataflow())
        .queryName("guards")
        .checkpointLocation(location.toString())
        .trigger(trigger)
        .parallelism(parallelism)
        .stateBackend(state)
        .start();
  }

  /** Runs {@code flow} with availableNow (or {@code trigger}) until it stops by itself. */
  static void runToEnd(Path location, Flow flow) throws Exception {
    runToEnd(location, flow, Trigger.availableNow(), 1, hashmap());
  }

  static void runToEnd(
      Path location, Flow flow, Trigger trigger, int parallelism, StateBackendSettings state)
      throws Exception {
    StreamingQuery query = start(location, flow, trigger, parallelism, state);
    assertThat(query.awaitTermination(RUN_TIMEOUT)).as("the run ended by itself").isTrue();
  }

  static StateBackendSettings hashmap() {
    return StateBackendSettings.defaults().withBackend(StateBackendSettings.Backend.HASHMAP);
  }

  /** Rows of the JSON-lines table as row -> count; fails on a row written twice. */
  static Map<Long, Long> tableCounts(Path table) throws IOException {
    List<String> lines = new ArrayList<>();
    if (Files.isDirectory(table)) {
      try (Stream<Path> files = Files.list(table)) {
        for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
          lines.addAll(Files.readAllLines(file));
        }
      }
    }
    return counts(lines);
  }

  /** Rows a test sink collected as row -> count; fails on a row received twice. */
  static Map<Long, Long> collectedCounts(String collector) {
    return counts(
        new ArrayList<>(COLLECTED.getOrDefault(collector, new ConcurrentLinkedQueue<>())));
  }

  static Map<Long, Long> counts(List<String> lines) {
    Map<Long, Long> byRow = new TreeMap<>();
    for (String line : lines) {
      JsonNode node;
      try {
        node = MAPPER.readTree(line);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      long row = node.get("row").asLong();
      if (node.has("key")) {
        assertThat(node.get("key").asLong()).as("key of row %d", row).isEqualTo(row % KEYS);
      }
      Long before = byRow.put(row, node.get("count").asLong());
      assertThat(before).as("row %d written twice", row).isNull();
    }
    return byRow;
  }

  /**
   * Every file below {@code dir} with its size, and the metadata file's text: what a refusal must
   * leave alone. Retries when files vanish during the walk.
   */
  static Map<String, String> contents(Path dir) throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return walk(dir);
      } catch (NoSuchFileException | UncheckedIOException e) {
        if (attempt == 20) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  /**
   * {@link #contents} once they stopped changing: a finished Flink job still discards its
   * checkpoints ({@code state/chk-N}) for a moment after the query terminated.
   */
  static Map<String, String> settledContents(Path dir) throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(RUN_TIMEOUT);
    Map<String, String> last = contents(dir);
    for (int stable = 0; stable < 3; ) {
      assertThat(Instant.now()).as("%s keeps changing", dir).isBefore(deadline);
      Thread.sleep(150);
      Map<String, String> now = contents(dir);
      stable = now.equals(last) ? stable + 1 : 0;
      last = now;
    }
    return last;
  }

  private static Map<String, String> walk(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.exists(dir)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(p).toString();
        out.put(rel, rel.equals("metadata") ? Files.readString(p) : Long.toString(Files.size(p)));
      }
    }
    return out;
  }

  /**
   * Predicts the table: the keyed counts the query should hold after each run, and the rows a run
   * over new input must write.
   */
  static final class CountModel {
    private final long[] counts = new long[KEYS];
    private long rows;

    /** The rows (row -> count) a run that reads rows {@code [rows, upTo)} must write. */
    Map<Long, Long> run(long upTo, LongPredicate dropped) {
      Map<Long, Long> out = new TreeMap<>();
      for (long row = rows; row < upTo; row++) {
        if (!dropped.test(row)) {
          out.put(row, ++counts[(int) (row % KEYS)]);
        }
      }
      rows = upTo;
      return out;
    }

    Map<Long, Long> run(long upTo) {
      return run(upTo, row -> false);
    }
  }

  static final class RowIndex implements GeneratorFunction<Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long map(Long index) {
      return index;
    }
  }

  static final class LongKey implements KeySelector<Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(Long row) {
      return row % KEYS;
    }
  }

  static final class StringKey implements KeySelector<Long, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getKey(Long row) {
      return "k" + row % KEYS;
    }
  }

  static final class DropSome implements FilterFunction<Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(Long row) {
      return !dropped(row);
    }
  }

  /** A running count per key in a {@code ValueState<Long>}, declaring its state schema. */
  static final class CountPerKey<K> extends KeyedProcessFunction<K, Long, String>
      implements DeclaresStateSchema {
    private static final long serialVersionUID = 1L;
    private final String schema;
    private transient ValueState<Long> count;

    CountPerKey(String schema) {
      this.schema = schema;
    }

    @Override
    public void open(OpenContext openContext) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(Long row, Context ctx, Collector<String> out) throws Exception {
      Long before = count.value();
      long now = before == null ? 1 : before + 1;
      count.update(now);
      out.collect("{\"row\":" + row + ",\"key\":" + row % KEYS + ",\"count\":" + now + "}");
    }

    @Override
    public String stateSchema() {
      return schema;
    }
  }

  /** A keyed operator that passes rows on and declares a state schema: a stateful operator. */
  static final class Relay extends KeyedProcessFunction<Long, Long, Long>
      implements DeclaresStateSchema {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(Long row, Context ctx, Collector<Long> out) {
      out.collect(row);
    }

    @Override
    public String stateSchema() {
      return "seen: ValueState<Long>; v1";
    }
  }

  /** The row as the counter writes it, with count 0: a stateless stand-in for the counter. */
  static final class Uncounted implements MapFunction<Long, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String map(Long row) {
      return "{\"row\":" + row + ",\"key\":" + row % KEYS + ",\"count\":0}";
    }
  }

  /** The projection: keeps row and count. */
  static final class DropKeyField implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String map(String line) throws Exception {
      JsonNode node = MAPPER.readTree(line);
      return "{\"row\":" + node.get("row") + ",\"count\":" + node.get("count") + "}";
    }
  }

  static final class LineAsIs implements RowEncoder<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String encode(String row) {
      return row;
    }
  }

  /** A Sink V2 of a given kind that collects its rows in {@link #COLLECTED}. */
  static final class CollectingSink implements Sink<String>, DescribedSink {
    private static final long serialVersionUID = 1L;
    private final SinkKind kind;
    private final String target;
    private final String collector;

    CollectingSink(SinkKind kind, String target, String collector) {
      this.kind = kind;
      this.target = target;
      this.collector = collector;
    }

    @Override
    public SinkKind sinkKind() {
      return kind;
    }

    @Override
    public String sinkTarget() {
      return target;
    }

    @Override
    public SinkWriter<String> createWriter(WriterInitContext context) {
      return writer();
    }

    @Override
    @Deprecated
    public SinkWriter<String> createWriter(InitContext context) {
      return writer();
    }

    private SinkWriter<String> writer() {
      Queue<String> rows = COLLECTED.computeIfAbsent(collector, c -> new ConcurrentLinkedQueue<>());
      return new SinkWriter<>() {
        @Override
        public void write(String row, Context context) {
          rows.add(row);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
