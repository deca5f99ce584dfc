package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.state.query.DeclaresStateSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The test query of the runtime tests: rate rows {@code 0..rows-1} -> keyed running count per
 * {@code row % KEYS} (keyed state) -> a JSON-lines table of {@code key,count,row}. From the table
 * one can tell whether every row arrived exactly once and whether the keyed state carried over
 * between runs (counts per key are exactly 1..n).
 */
final class CountingQuery {
  static final int KEYS = 5;

  /** Set to fail the first time a row >= this value is counted (task failure mid-epoch). */
  static volatile long failAtRow = Long.MAX_VALUE;

  static final AtomicBoolean FAILED = new AtomicBoolean();

  private CountingQuery() {}

  static Dataflow dataflow(Path table, long rows, long maxRowsPerTrigger, long rowsPerSecond) {
    String dir = table.toUri().toString();
    return (env, query) ->
        env.fromSource(
                RateSourceBuilder.rate("numbers", row -> row, Types.LONG)
                    .rows(rows)
                    .numPartitions(3)
                    .rowsPerSecond(rowsPerSecond)
                    .maxRowsPerTrigger(maxRowsPerTrigger)
                    .query(query)
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "numbers")
            .uid("numbers")
            .map(new FailOnce())
            .uid("fail-once")
            .keyBy(row -> row % KEYS)
            .process(new RunningCount())
            .uid("running-count")
            .sinkTo(
                JsonLinesFileSink.create(
                    dir, line -> line, new CommitRecordListener(query, "counts", "counts " + dir)))
            .uid("counts");
  }

  /** Every line of the table, as {key, count, row}. */
  static List<long[]> read(Path table) throws IOException {
    List<long[]> rows = new ArrayList<>();
    if (!Files.isDirectory(table)) {
      return rows;
    }
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(f)) {
          String[] parts = line.split(",");
          rows.add(
              new long[] {
                Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
              });
        }
      }
    }
    return rows;
  }

  /** Asserts rows 0..rows-1 each exactly once and, per key, counts exactly 1..n. */
  static void assertExactlyOnce(Path table, long rows) throws IOException {
    List<long[]> lines = read(table);
    assertThat(lines.stream().map(l -> l[2]).sorted().toList())
        .as("every row exactly once")
        .containsExactlyElementsOf(Stream.iterate(0L, i -> i + 1).limit(rows).toList());
    Map<Long, List<Long>> countsByKey = new HashMap<>();
    for (long[] l : lines) {
      countsByKey.computeIfAbsent(l[0], k -> new ArrayList<>()).add(l[1]);
    }
    countsByKey.forEach(
        (key, counts) ->
            assertThat(counts.stream().sorted().toList())
                .as("counts of key %s continue across runs", key)
                .containsExactlyElementsOf(
                    Stream.iterate(1L, i -> i + 1).limit(counts.size()).toList()));
  }

  static final class FailOnce implements MapFunction<Long, Long> {
    @Override
    public Long map(Long row) {
      if (row >= failAtRow && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at row " + row);
      }
      return row;
    }
  }

  static final class RunningCount extends KeyedProcessFunction<Long, Long, String>
      implements DeclaresStateSchema {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext context) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(Long row, Context ctx, Collector<String> out) throws IOException {
      long next = (count.value() == null ? 0 : count.value()) + 1;
      count.update(next);
      out.collect(ctx.getCurrentKey() + "," + next + "," + row);
    }

    @Override
    public String stateSchema() {
      return "count: ValueState<Long> v1";
    }
  }
}
