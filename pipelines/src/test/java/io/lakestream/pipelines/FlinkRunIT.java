package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.pipelines.demo.DemoOrdersModel;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application jar under {@code flink run}: Flink's own command-line front end (the class behind
 * {@code bin/flink}) submits {@code lakestream.jar} to a local executor, so the job runs in a user
 * code class loader from the jar alone, with Flink's classpath (Flink SQL's planner included, as in
 * a distribution's lib/) and no lakestream classes on it: a pipeline, and a SQL script read on the
 * client ({@code sql -f}).
 */
class FlinkRunIT {
  @TempDir Path dir;

  private int flinkRun(Path conf, String... args) throws Exception {
    String classpath =
        Files.readString(Path.of("target/embedded-runtime.classpath")).trim()
            + File.pathSeparator
            + Files.readString(Path.of("target/embedded-provided.classpath")).trim();
    String flinkClasspath =
        Arrays.stream(classpath.split(File.pathSeparator))
            .filter(entry -> !new File(entry).getName().startsWith("lakestream-"))
            .collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-cp",
            flinkClasspath,
            "org.apache.flink.client.cli.CliFrontend",
            "run",
            "-t",
            "local",
            ApplicationJar.path()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("FLINK_CONF_DIR", conf.toString());
    builder.redirectOutput(dir.resolve("flink-run.log").toFile());
    Process process = builder.start();
    assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("flink run finished").isTrue();
    return process.exitValue();
  }

  private static long orders(Path out) throws Exception {
    return new DeltaTableReader(DeltaTable.forPath(out.resolve("orders").toUri().toString()))
        .count();
  }

  private static long lines(Path table) throws Exception {
    long count = 0;
    try (Stream<Path> files = Files.list(table)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        count += Files.readAllLines(f).size();
      }
    }
    return count;
  }

  @Test
  void theApplicationJarRunsUnderFlinkRunAndResumes() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(
        conf.resolve("config.yaml"),
        "rest.address: 127.0.0.1\njobmanager.rpc.address: 127.0.0.1\n",
        StandardCharsets.UTF_8);
    Path out = dir.resolve("out");

    int first = flinkRun(conf, "run", "demo", "--rows", "2000", "--output", out.toString());
    String log = Files.readString(dir.resolve("flink-run.log"));
    assertThat(first).as(log).isZero();
    // every event once (the generator's repeats dropped), every malformed record a dead letter
    DemoOrdersModel half = DemoOrdersModel.of(2000, 2000);
    assertThat(orders(out)).isEqualTo(half.orders());
    assertThat(lines(out.resolve("orders_dead_letters"))).isEqualTo(half.deadLetters());

    int second = flinkRun(conf, "run", "demo", "--rows", "3000", "--output", out.toString());
    assertThat(second).as(Files.readString(dir.resolve("flink-run.log"))).isZero();
    DemoOrdersModel all = DemoOrdersModel.of(3000, 2000);
    assertThat(orders(out)).isEqualTo(all.orders());
    assertThat(lines(out.resolve("orders_dead_letters"))).isEqualTo(all.deadLetters());
  }

  @Test
  void aSqlScriptOnTheClientRunsUnderFlinkRunAndResumes() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(
        conf.resolve("config.yaml"),
        "rest.address: 127.0.0.1\njobmanager.rpc.address: 127.0.0.1\n",
        StandardCharsets.UTF_8);
    DeltaTable orders = DeltaTable.forPath(dir.resolve("orders").toUri().toString());
    appendOrders(orders, 1, "c1", "c2", "c1");
    Path script =
        Files.writeString(
            dir.resolve("gold.sql"),
            """
            SET 'lakestream.trigger' = 'availableNow';
            CREATE TABLE orders (customer STRING NOT NULL, amount BIGINT)
              WITH ('connector' = 'delta', 'path' = '%s');
            CREATE TABLE totals (customer STRING NOT NULL, n BIGINT,
              PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'delta', 'path' = '%s');
            INSERT INTO totals SELECT customer, COUNT(*) FROM orders GROUP BY customer;
            """
                .formatted(orders.path(), dir.resolve("totals").toUri()));
    String[] sql = {
      "sql",
      "-f",
      script.toString(),
      "--checkpoint-location",
      dir.resolve("chk").toString(),
      "--parallelism",
      "1"
    };

    assertThat(flinkRun(conf, sql)).as(Files.readString(dir.resolve("flink-run.log"))).isZero();
    assertThat(totals()).containsEntry("c1", 2L).containsEntry("c2", 1L).hasSize(2);

    appendOrders(orders, 2, "c2", "c3");
    assertThat(flinkRun(conf, sql)).as(Files.readString(dir.resolve("flink-run.log"))).isZero();
    assertThat(totals()).containsEntry("c1", 2L).containsEntry("c2", 2L).containsEntry("c3", 1L);
  }

  private static void appendOrders(DeltaTable table, long version, String... customers)
      throws Exception {
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("customer", ColumnType.STRING, false)
            .column("amount", ColumnType.LONG)
            .build();
    List<Object[]> rows = new ArrayList<>();
    for (String customer : customers) {
      rows.add(new Object[] {customer, 1L});
    }
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "producer");
    commit.open();
    commit.commit(version, new DeltaTableWriter(table, schema).write(rows));
  }

  private Map<String, Long> totals() {
    Map<String, Long> totals = new TreeMap<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(dir.resolve("totals").toUri().toString()))
            .readLatest()) {
      totals.put((String) row[0], (Long) row[1]);
    }
    return totals;
  }
}
