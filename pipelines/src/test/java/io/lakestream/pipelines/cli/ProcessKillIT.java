package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.pipelines.SqlExample;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.flink.FlinkLib;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import io.lakestream.testkit.postgres.PostgresExtension;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole {@code lakestream run} process killed with SIGKILL at seeded random points, then the
 * same command run again, for every pipeline of the CLI (demo, bronze, silver, gold, bronze-files,
 * clicks, gold-to-lakebase; availableNow, several epochs each), and {@code lakestream sql -f} of
 * the worked example E3 ({@code e3_silver.sql}): the tables and dead-letter outputs equal a clean
 * run's row for row, and every epoch is in each Delta log once.
 *
 * <p>Kill points: a random time into a random epoch (which falls inside epochs, Delta commits and
 * checkpoints alike), or right after availableNow starts its final stop-with-savepoint. The seed
 * and each kill point are printed; {@code -Dlakestream.kill.seed=N} replays them and {@code
 * -Dlakestream.kill.count=N} (default 1) kills each pipeline N times before the run that finishes.
 * The inputs never put an event behind the watermark, so the clean run is the model whatever the
 * epochs are.
 */
class ProcessKillIT {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("process-kill-it");
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final long SEED = Long.getLong("lakestream.kill.seed", System.nanoTime());
  private static final int KILLS = Integer.getInteger("lakestream.kill.count", 1);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Columns that number a run's own epochs or versions (the quarantine's epoch, the silver version
   * gold last read), which differ when a kill splits the input into other epochs, and a dead
   * letter's processing time.
   */
  private static final List<String> RUN_DEPENDENT_COLUMNS =
      List.of("epoch", "silver_version", "rejected_at");

  /** Kept when a test fails: the lakes and every run's output (*.out) show what happened. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path dir;

  @BeforeAll
  static void inputs() throws Exception {
    System.out.println("ProcessKillIT seed " + SEED + ", " + KILLS + " kill(s) per pipeline");
    KAFKA.createTopic("orders", 2);
    List<String> orders = new ArrayList<>();
    List<OrderEvents.Event> events = OrderEvents.versions(120);
    events.forEach(e -> orders.add(e.json()));
    events.subList(0, 30).forEach(e -> orders.add(e.json())); // producer resends: duplicates
    orders.addAll(OrderEvents.malformed("a"));
    orders.addAll(OrderEvents.malformed("b"));
    OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 2, orders);

    KAFKA.createTopic("clicks", 1); // one partition in time order: no click is ever late
    List<String> clicks = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      clicks.add(
          "{\"click_id\":\"k-"
              + i
              + "\",\"ad_id\":\"ad-"
              + (i % 5)
              + "\",\"event_time\":\""
              + OrderEvents.T0.plusSeconds(i * 9L)
              + "\"}");
      if (i % 80 == 7) {
        clicks.add("{\"click_id\":\"bad-" + i + "\"");
      }
    }
    OrderEvents.produce(KAFKA.bootstrapServers(), "clicks", 1, clicks);

    Path landing = dir.resolve("landing");
    for (int f = 0; f < 12; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        lines.add(events.get((f * 25 + i) % events.size()).json());
      }
      Path file = landing.resolve("date=2026-03-0" + (1 + f % 3) + "/part-" + f + ".json");
      Files.createDirectories(file.getParent());
      Files.write(file, lines);
    }
  }

  @Test
  void demo() throws Exception {
    campaign(
        "demo",
        List.of("--rows", "3000", "--rows-per-second", "500"),
        "orders",
        "orders_dead_letters",
        "orders_silver",
        "orders_gold_daily");
  }

  /**
   * Bronze with a local checkpoint location: only in longer campaigns ({@code
   * -Dlakestream.kill.all=true}); CI kills bronze on S3 ({@link
   * #bronzeWithItsCheckpointLocationOnS3}), the same pipeline and kill points.
   */
  @Test
  @EnabledIfSystemProperty(named = "lakestream.kill.all", matches = "true")
  void bronze() throws Exception {
    campaign("bronze", kafka(), "orders_bronze", "orders_bronze_dead_letters");
  }

  /**
   * Silver, gold and gold-to-lakebase killed one by one: only in longer campaigns ({@code
   * -Dlakestream.kill.all=true}), to keep CI short (nine processes, ~170 s); in CI the demo's kills
   * land in its silver, gold and Lakebase stages as well as in bronze, and {@code
   * GoldToLakebaseITCase} and {@code OrdersSilverExactlyOnceITCase} fail tasks mid-epoch.
   */
  @Test
  @EnabledIfSystemProperty(named = "lakestream.kill.all", matches = "true")
  void silverThenGold() throws Exception {
    campaign("silver", kafka(), "orders_silver", "orders_silver_quarantine");
    campaign("gold", List.of(), "orders_gold_daily");
    goldToLakebase();
  }

  /**
   * gold-to-lakebase on the silver lakes above, availableNow (the sink's exactly-once mode) into a
   * table per lake: the killed lake's table equals the clean one's row for row, no epoch is
   * recorded twice in the commit table and nothing is left staged.
   */
  private static void goldToLakebase() throws Exception {
    List<String> options =
        List.of(
            "-o",
            "endpoint=" + POSTGRES.jdbcUrl(),
            "-o",
            "user=" + POSTGRES.user(),
            "-o",
            "password=" + POSTGRES.password(),
            "-o",
            "maxFilesPerTrigger=1");
    Runs perTable = new Runs("", Map.of(), lake -> List.of("-o", "dbtable=" + lakebaseTable(lake)));
    campaign("gold-to-lakebase", options, perTable);
    List<String> clean = lakebaseRows(lakebaseTable("clean"));
    assertThat(clean).isNotEmpty();
    assertThat(lakebaseRows(lakebaseTable("killed")))
        .as("the Lakebase table after SIGKILLs (seed %d) = a clean run's", SEED)
        .containsExactlyElementsOf(clean);
    for (String lake : List.of("clean", "killed")) {
      String table = lakebaseTable(lake);
      assertThat(count("SELECT count(*) FROM " + table + "_lakestream_stage")).isZero();
      assertThat(
              count(
                  "SELECT count(*) FROM (SELECT 1 FROM public."
                      + StagingTable.COMMITS
                      + " WHERE target = 'public."
                      + table
                      + "' GROUP BY app_id, subtask, epoch HAVING count(*) > 1) twice"))
          .isZero();
    }
  }

  private static String lakebaseTable(String lake) {
    return "gold_" + lake.replace('-', '_');
  }

  private static List<String> lakebaseRows(String table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT order_date, orders, total_amount, change_rows FROM "
                    + table
                    + " ORDER BY order_date")) {
      while (rs.next()) {
        rows.add(
            rs.getString(1) + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getLong(4));
      }
    }
    return rows;
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void bronzeFiles() throws Exception {
    campaign(
        "bronze-files",
        List.of(
            "-o",
            "path=" + dir.resolve("landing").toUri(),
            "-o",
            "cloudFiles.maxFilesPerTrigger=2"),
        "orders_bronze_files");
  }

  /**
   * The windowed clicks: only in longer campaigns ({@code -Dlakestream.kill.all=true}), to keep CI
   * short; in CI their windows are exact across task failures and restarts ({@code
   * AdClicksPerWindowITCase}) and the other pipelines take the SIGKILLs.
   */
  @Test
  @EnabledIfSystemProperty(named = "lakestream.kill.all", matches = "true")
  void clicks() throws Exception {
    campaign("clicks", kafka(), "ad_clicks_5m", "ad_clicks_dead_letters");
  }

  /**
   * Bronze with its checkpoint location on S3 (Flink's checkpoints, offsets, commits, the lease
   * through the S3 server), configured as a user configures {@code flink}: {@code s3.*} in {@code
   * $FLINK_CONF_DIR/config.yaml}, the flink-s3-fs-hadoop plugin in {@code $FLINK_PLUGINS_DIR}.
   */
  @Test
  void bronzeWithItsCheckpointLocationOnS3() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("s3-conf"));
    StringBuilder yaml = new StringBuilder();
    S3.flinkConfiguration().toMap().forEach((k, v) -> yaml.append(k + ": '" + v + "'\n"));
    Files.writeString(conf.resolve("config.yaml"), yaml);
    Map<String, String> environment =
        Map.of(
            "FLINK_CONF_DIR",
            conf.toString(),
            "FLINK_PLUGINS_DIR",
            FlinkLib.pluginsDirectory(dir.resolve("plugins")).toString());
    Runs onS3 =
        new Runs(
            "s3",
            environment,
            lake -> List.of("--checkpoint", S3.uri("checkpoints/" + lake).toString()));
    campaign("bronze", kafka(), onS3, "orders_bronze", "orders_bronze_dead_letters");
    assertThat(S3.server().keys("checkpoints/killed-s3/commits/")).isNotEmpty();
    assertThat(S3.server().keys("checkpoints/killed-s3/lease/")).hasSize(1);
  }

  /**
   * E3 from SQL: {@code lakestream sql -f e3_silver.sql}, the example file with its tables and
   * checkpoint location in the run's lake, on the test broker's 'orders' topic (the Java silver's
   * input), availableNow with 60 records an epoch. Only in longer campaigns ({@code
   * -Dlakestream.kill.all=true}), to keep CI short; in CI SQL jobs restart from checkpoints and
   * savepoints in {@code SqlRestartMatrixITCase} and {@code OrdersSilverSqlITCase}.
   */
  @Test
  @EnabledIfSystemProperty(named = "lakestream.kill.all", matches = "true")
  void silverFromSql() throws Exception {
    Runs sql = new Runs("sql", Map.of(), lake -> List.of());
    for (String kind : List.of("clean", "killed")) {
      Path lake = Files.createDirectories(dir.resolve(sql.lake(kind)));
      Files.writeString(
          lake.resolve("e3_silver.sql"),
          SqlExample.of("e3_silver.sql")
              .localized(lake, KAFKA.bootstrapServers())
              .replace("'format' = 'json',", "'format' = 'json', 'maxOffsetsPerTrigger' = '60',")
              .text());
    }
    campaign(
        "e3_silver",
        sql,
        lake -> List.of("sql", "-f", dir.resolve(lake).resolve("e3_silver.sql").toString()),
        "orders_silver",
        "orders_silver_quarantine",
        "orders_silver_dead_letters");
  }

  private static List<String> kafka() {
    return List.of(
        "-o",
        "kafka.bootstrap.servers=" + KAFKA.bootstrapServers(),
        "-o",
        "maxOffsetsPerTrigger=60");
  }

  /**
   * Runs {@code pipeline} once cleanly and once with kills, each into its own lake, and compares
   * {@code outputs} (directories below the lake).
   */
  private static void campaign(String pipeline, List<String> options, String... outputs)
      throws Exception {
    campaign(pipeline, options, Runs.LOCAL, outputs);
  }

  /**
   * Where runs keep their lakes ({@code <dir>/clean<suffix>}, {@code <dir>/killed<suffix>}), the
   * environment they get, and the options each lake adds (by the lake's directory name).
   */
  private record Runs(
      String suffix, Map<String, String> environment, Function<String, List<String>> perLake) {
    static final Runs LOCAL = new Runs("", Map.of(), lake -> List.of());

    String lake(String kind) {
      return suffix.isEmpty() ? kind : kind + "-" + suffix;
    }
  }

  private static void campaign(String pipeline, List<String> given, Runs runs, String... outputs)
      throws Exception {
    campaign(
        pipeline,
        runs,
        lake -> {
          List<String> args =
              new ArrayList<>(
                  List.of(
                      "run",
                      pipeline,
                      "--output",
                      dir.resolve(lake).toString(),
                      "--trigger",
                      "availableNow"));
          args.addAll(given);
          args.addAll(runs.perLake().apply(lake));
          return args;
        },
        outputs);
  }

  /**
   * Runs {@code command} (the {@code lakestream} arguments for a lake, by the lake's directory
   * name) once cleanly and with kills, and compares {@code outputs}.
   *
   * @param pipeline the query's name, which its progress lines start with
   */
  private static void campaign(
      String pipeline, Runs runs, Function<String, List<String>> command, String... outputs)
      throws Exception {
    Path clean = dir.resolve(runs.lake("clean"));
    Path killed = dir.resolve(runs.lake("killed"));
    List<String> cleanArgs = command.apply(runs.lake("clean"));
    List<String> args = command.apply(runs.lake("killed"));
    long started = System.nanoTime();
    LakestreamProcess run =
        start(pipeline, runs.lake("clean"), runs.environment(), cleanArgs).await();
    assertThat(run.exitCode()).as(run.output()).isZero();
    Duration cleanRun = Duration.ofNanos(System.nanoTime() - started);

    Random random = new Random(SEED ^ pipeline.hashCode());
    int kills = 0;
    for (int attempt = 0; kills < KILLS && attempt < KILLS + 3; attempt++) {
      LakestreamProcess victim =
          start(pipeline, runs.lake("kill-" + attempt), runs.environment(), args);
      if (killOnce(pipeline, victim, KillPoint.random(random, cleanRun))) {
        kills++;
      }
    }
    LakestreamProcess last =
        start(pipeline, runs.lake("after-kills"), runs.environment(), args).await();
    assertThat(last.exitCode()).as(last.output()).isZero();
    assertThat(kills).as("kills that landed before the run ended (seed %d)", SEED).isPositive();

    for (String output : outputs) {
      assertThat(contents(killed.resolve(output)))
          .as("%s after %d SIGKILLs (seed %d) = a clean run's", output, kills, SEED)
          .containsExactlyElementsOf(contents(clean.resolve(output)));
    }
  }

  private static LakestreamProcess start(
      String pipeline, String name, Map<String, String> environment, List<String> args)
      throws Exception {
    return LakestreamProcess.start(dir, pipeline + "-" + name, environment, args);
  }

  /**
   * Where a run is killed: {@code delay} after the run starts, after the {@code epoch}-th progress
   * line (an epoch ended, the next runs), or after availableNow starts its final stop.
   */
  private record KillPoint(String after, int times, Duration delay) {
    static KillPoint random(Random random, Duration cleanRun) {
      int kind = random.nextInt(10);
      if (kind < 5) { // anywhere from start-up to the end: 25-90% of a clean run's time
        long millis = cleanRun.toMillis();
        return new KillPoint(
            null, 0, Duration.ofMillis(millis / 4 + random.nextLong(millis * 2 / 3)));
      }
      if (kind < 8) {
        return new KillPoint(
            " epoch ", 1 + random.nextInt(2), Duration.ofMillis(random.nextInt(1500)));
      }
      return new KillPoint("stopping with a savepoint", 1, Duration.ofMillis(random.nextInt(400)));
    }

    @Override
    public String toString() {
      return after == null
          ? delay.toMillis() + " ms after start"
          : delay.toMillis() + " ms after '" + after.trim() + "' #" + times;
    }
  }

  /**
   * Kills the run at {@code point}; returns false if it ended before (then it must have succeeded).
   */
  private static boolean killOnce(String pipeline, LakestreamProcess run, KillPoint point)
      throws Exception {
    try (run) {
      boolean reached =
          point.after() == null
              || run.awaitText(
                  point.after().equals(" epoch ") ? pipeline + " epoch " : point.after(),
                  point.times(),
                  Duration.ofMinutes(2));
      Thread.sleep(point.delay().toMillis());
      if (!reached || !run.isAlive()) {
        run.await();
        assertThat(run.exitCode()).as(run.output()).isZero();
        System.out.println(pipeline + ": the run ended before the kill point (" + point + ")");
        return false;
      }
      run.signal("KILL").await();
      System.out.println(pipeline + ": SIGKILL " + point + " (seed " + SEED + ")");
      return true;
    }
  }

  /**
   * A Delta table's rows (its log checked for epochs committed twice; the quarantine's epoch column
   * left out, as epochs differ between runs) or the lines of a JSON lines output without their
   * processing time, sorted.
   */
  private static List<String> contents(Path output) throws Exception {
    List<String> rows = new ArrayList<>();
    if (Files.isDirectory(output.resolve("_delta_log"))) {
      DeltaLogTxns.read(output).assertEachEpochOnce();
      DeltaTableReader reader = new DeltaTableReader(DeltaTable.forPath(output.toUri().toString()));
      List<String> columns = reader.columnNames();
      for (Object[] row : reader.readLatest()) {
        for (String column : RUN_DEPENDENT_COLUMNS) {
          if (columns.contains(column)) {
            row[columns.indexOf(column)] = null;
          }
        }
        rows.add(Arrays.toString(row));
      }
    } else {
      try (Stream<Path> files = Files.list(output)) {
        for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
          for (String line : Files.readAllLines(file)) {
            ObjectNode node = (ObjectNode) JSON.readTree(line);
            node.remove("rejected_at");
            rows.add(node.toString());
          }
        }
      }
    }
    rows.sort(null);
    assertThat(rows).as("%s has rows", output).isNotEmpty();
    return rows;
  }
}
