package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.runtime.DataflowInspector;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * Fails the build when an operator of a shipped pipeline has no explicit uid: without one, its
 * state cannot be found again after a code change.
 */
class PipelinesHaveUidsTest {

  static final class AllPipelines implements org.junit.jupiter.params.provider.ArgumentsProvider {
    @Override
    public java.util.stream.Stream<? extends org.junit.jupiter.params.provider.Arguments>
        provideArguments(org.junit.jupiter.api.extension.ExtensionContext context) {
      java.util.List<org.junit.jupiter.params.provider.Arguments> all = new ArrayList<>();
      new Pipelines.Names()
          .forEach(n -> all.add(org.junit.jupiter.params.provider.Arguments.of(n)));
      return all.stream();
    }
  }

  @ParameterizedTest
  @ArgumentsSource(AllPipelines.class)
  void everyOperatorHasAnExplicitUid(String name, @TempDir Path dir) throws Exception {
    if (name.equals("jdbc-to-delta")) { // reads a database's columns; JdbcToDeltaITCase runs it
      return; // through the launcher, which refuses operators without a uid (requireUids)
    }
    if (name.equals("gold-to-lakebase")) {
      return; // its sink connects to PostgreSQL when built: GoldToLakebaseITCase checks its uids
    }
    if (name.equals("gold")) { // reads the change feed of an existing silver table
      io.lakestream.connectors.delta.DeltaTable.forPath(
              dir.resolve("out/orders_silver").toUri().toString())
          .ensureExists(io.lakestream.pipelines.gold.OrdersGoldDaily.SILVER_SCHEMA);
    }
    Map<String, String> sourceOptions = Map.of("kafka.bootstrap.servers", "127.0.0.1:9092");
    if (name.equals("gold")) {
      sourceOptions = Map.of();
    } else if (name.equals("bronze-files")) { // infers its schema from a landed file
      Path landing = java.nio.file.Files.createDirectories(dir.resolve("landing/date=2026-11-29"));
      java.nio.file.Files.writeString(
          landing.resolve("part-0.json"), "{\"order_id\":\"o-1\",\"amount\":\"1.00\"}\n");
      sourceOptions = Map.of("path", dir.resolve("landing").toUri().toString());
    } else if (name.equals("kinesis-to-bronze")) {
      sourceOptions = Map.of("streamName", "clicks", "region", "us-east-1");
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    QueryContext query =
        new QueryContext(
            "q",
            name,
            "run",
            "app",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    Pipelines.byName(name)
        .dataflow(new PipelineOptions(dir.resolve("out").toUri(), 10, 10, 0, sourceOptions))
        .build(env, query);

    DataflowInspector inspector = new DataflowInspector(new ArrayList<>(env.getTransformations()));
    assertThat(inspector.operatorsWithoutUid()).isEmpty();
    assertThat(inspector.fingerprint("rocksdb", 128).sources()).isNotEmpty();
  }

  /** The demo's silver and gold stages, built on the tables the stage before them writes. */
  @Test
  void theDemosStagesGiveEveryOperatorAnExplicitUid(@TempDir Path dir) throws Exception {
    PipelineOptions options = new PipelineOptions(dir.resolve("out").toUri(), 10, 10, 0);
    io.lakestream.connectors.delta.DeltaTable.forPath(options.path("orders"))
        .ensureExists(io.lakestream.pipelines.demo.OrdersDemo.ORDERS_SCHEMA);
    io.lakestream.connectors.delta.DeltaTable.forPath(options.path("orders_silver"))
        .ensureExists(io.lakestream.pipelines.silver.OrdersSilverTables.SILVER);
    List<Pipeline> stages = Pipelines.byName("demo").followedBy();
    assertThat(stages).extracting(Pipeline::name).containsExactly("demo-silver", "demo-gold");
    for (Pipeline stage : stages) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      QueryContext query =
          new QueryContext(
              "q",
              stage.name(),
              "run",
              "app",
              dir.resolve("chk-" + stage.name()).toUri().toString(),
              false,
              false,
              OutputMode.APPEND);
      stage.dataflow(options).build(env, query);
      DataflowInspector inspector =
          new DataflowInspector(new ArrayList<>(env.getTransformations()));
      assertThat(inspector.operatorsWithoutUid()).as(stage.name()).isEmpty();
      assertThat(inspector.fingerprint("rocksdb", 128).sources()).isNotEmpty();
    }
  }
}
