package io.lakestream.pipelines.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.LakehouseInput;
import io.lakestream.pipelines.cli.LakestreamProcess;
import io.lakestream.pipelines.gold.SilverOrders;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.pipelines.silver.OrdersSilver;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The soak: bronze, silver and gold ({@link SoakQuery}, each its own JVM, processing-time triggers)
 * run on one Kafka topic for a given time while the input flows in rounds and a failure is injected
 * every {@code failureEvery}: in turn a task failure, a SIGKILL of the process (then the same
 * command again) and a restart of the broker, each mid-round, the victim rotating over the three
 * pipelines.
 *
 * <p>After each round the soak waits until all five outputs (bronze and its dead letters, silver
 * and its quarantine, gold) equal their models ({@link LakehouseInput}) row for row; a round whose
 * outputs do not match within {@link #CAUGHT_UP} is a failed check. It then samples the state of
 * bronze's and silver's deduplication ({@code numRowsTotal} of the newest progress) against a bound
 * from the model (ids within the watermark delay cannot exceed the distinct events of the last
 * {@link #ROUNDS_IN_STATE} rounds), and each process's live heap ({@link HeapSamples}). In the end
 * every Delta log must hold each epoch once.
 *
 * <p>Each round's events are one hour of event time 40 minutes after the previous round's, so no
 * event is late and gold sees a new day every 36 rounds; resends of the round's events and
 * malformed records are mixed in.
 */
final class Soak {
  /** How long the outputs may take to match the model after a round (and its failure). */
  static final Duration CAUGHT_UP = Duration.ofMinutes(3);

  /** Rounds whose ids a watermark delay of one hour can keep in state (40 min apart, 36 long). */
  static final int ROUNDS_IN_STATE = 4;

  static final List<String> PIPELINES = List.of("bronze", "silver", "gold");
  static final String TOPIC = "orders";
  static final int PARTITIONS = 2;

  /** How long a short soak may go on, on a slow or busy machine, to inject each kind of failure. */
  static final Duration SLOW_MACHINE_CAP = Duration.ofMinutes(5);

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
  private static final Duration ROUND_SPACING = Duration.ofMinutes(40);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a soak runs: how long, how fast, how often it injects a failure, where. */
  record Settings(
      Duration duration,
      long seed,
      Duration failureEvery,
      int rowsPerSecond,
      String trigger,
      Path directory) {

    /**
     * From {@code lakestream.soak.*} system properties ({@code minutes}, {@code seed}, {@code
     * failureEverySeconds}, {@code rowsPerSecond}, {@code trigger}, {@code directory}).
     */
    static Settings fromSystemProperties() {
      double minutes = Double.parseDouble(System.getProperty("lakestream.soak.minutes", "1"));
      long failureEvery =
          Long.getLong("lakestream.soak.failureEverySeconds", minutes >= 10 ? 180 : 10);
      return new Settings(
          Duration.ofMillis((long) (minutes * 60_000)),
          Long.getLong("lakestream.soak.seed", System.nanoTime()),
          Duration.ofSeconds(failureEvery),
          Integer.getInteger("lakestream.soak.rowsPerSecond", 50),
          System.getProperty("lakestream.soak.trigger", "processingTime=5s"),
          Path.of(System.getProperty("lakestream.soak.directory", "target/soak")).toAbsolutePath());
    }

    @Override
    public String toString() {
      return String.format(
          "%.1f min, seed %d, a failure every %d s, %d rows/s, trigger %s, in %s",
          duration.toMillis() / 60_000.0,
          seed,
          failureEvery.toSeconds(),
          rowsPerSecond,
          trigger,
          directory);
    }
  }

  enum Fault {
    TASK_FAILURE,
    PROCESS_KILL,
    BROKER_RESTART
  }

  /** A failure injected in {@code round}, and how long until every output matched again. */
  record Injection(int round, Fault fault, String pipeline, long recoveryMillis) {}

  /** One round: input so far, how long until the outputs matched, state and heap samples. */
  record Round(
      int number,
      long records,
      long bronzeRows,
      long caughtUpMillis,
      boolean matched,
      String mismatch,
      Map<String, Long> stateRows,
      long stateBound,
      Map<String, Long> liveHeapMib) {}

  private final Settings settings;
  private final KafkaBroker broker;
  private final Path lake;
  private final Random random;
  private final LakehouseInput input;
  private final Map<String, LakestreamProcess> processes = new LinkedHashMap<>();
  private final Map<String, Integer> starts = new LinkedHashMap<>();
  private final List<Integer> distinctPerRound = new ArrayList<>();
  final List<Round> rounds = new ArrayList<>();
  final List<Injection> injections = new ArrayList<>();
  final List<String> logProblems = new ArrayList<>();

  Soak(Settings settings, KafkaBroker broker) {
    this.settings = settings;
    this.broker = broker;
    this.lake = settings.directory().resolve("lake");
    this.random = new Random(settings.seed());
    this.input = new LakehouseInput(broker.bootstrapServers(), TOPIC, PARTITIONS);
  }

  /**
   * Runs the soak for its duration, and on a machine too slow to inject every kind of failure in
   * it, on (up to three times as long, at least {@link #SLOW_MACHINE_CAP}) until each was injected
   * once; the outcome is in {@link #rounds} and {@link #injections}.
   */
  void run() throws Exception {
    freshDirectory();
    Files.createDirectories(lake.resolve("_soak"));
    broker.createTopic(TOPIC, PARTITIONS);
    long t0 = System.nanoTime();
    long lastFailure = t0;
    try {
      start("bronze");
      start("silver");
      long duration = settings.duration().toMillis();
      long cap = Math.max(3 * duration, SLOW_MACHINE_CAP.toMillis());
      for (int round = 0;
          millis(t0) < duration || (!everyFaultInjected() && millis(t0) < cap);
          round++) {
        boolean fail =
            round > 0
                && System.nanoTime() - lastFailure >= settings.failureEvery().toNanos()
                && (!everyFaultInjected()
                    || millis(t0) + settings.failureEvery().toMillis() / 2 < duration);
        Fault fault = fail ? Fault.values()[injections.size() % Fault.values().length] : null;
        String victim =
            fail ? PIPELINES.get((injections.size() / 3 + injections.size()) % 3) : null;
        long injected = produceRound(round, fault, victim);
        if (fail) {
          lastFailure = System.nanoTime();
        }
        if (round == 0) {
          awaitSilverTable();
          start("gold");
        }
        Round result = check(round);
        rounds.add(result);
        if (fail) {
          injections.add(
              new Injection(
                  round,
                  fault,
                  fault == Fault.BROKER_RESTART ? "broker" : victim,
                  millis(injected)));
        }
        System.out.println("soak " + describe(result));
        if (!result.matched()) {
          break;
        }
      }
      for (String table :
          List.of(
              "orders_bronze",
              OrdersSilver.SILVER_TABLE,
              OrdersSilver.QUARANTINE_TABLE,
              "orders_gold_daily")) {
        DeltaLogTxns.read(lake.resolve(table)).assertEachEpochOnce();
      }
    } finally {
      for (LakestreamProcess process : processes.values()) {
        process.close();
      }
      scanLogs();
    }
  }

  /** Empties the soak's directory: it must be empty, missing, or an earlier soak's. */
  private void freshDirectory() throws IOException {
    Path dir = settings.directory();
    if (Files.isDirectory(dir)) {
      boolean earlierSoak = Files.isDirectory(lake.resolve("_soak"));
      try (Stream<Path> entries = Files.list(dir)) {
        if (!earlierSoak && entries.findAny().isPresent()) {
          throw new IllegalArgumentException(
              "the soak directory "
                  + dir
                  + " holds files that are not an earlier soak's; give an empty or new one"
                  + " (--directory)");
        }
      }
      TempDirectory.deleteRecursively(dir);
    }
    Files.createDirectories(dir);
  }

  private boolean everyFaultInjected() {
    return injections.size() >= Fault.values().length;
  }

  /** Produces one round, about one second per chunk; returns when the failure was injected. */
  private long produceRound(int round, Fault fault, String victim) throws Exception {
    int orders = Math.max(8, settings.rowsPerSecond() * 8 / 5); // about 2.5 events per order
    List<Event> events = new ArrayList<>();
    for (Event e : OrderEvents.versions(orders, START.plus(ROUND_SPACING.multipliedBy(round)))) {
      events.add(ofRound(e, round));
    }
    distinctPerRound.add(events.size());
    Collections.shuffle(events, random);
    int chunks =
        Math.max(1, (events.size() + settings.rowsPerSecond() - 1) / settings.rowsPerSecond());
    int failAt = random.nextInt(chunks);
    long injected = 0;
    for (int c = 0; c < chunks; c++) {
      long chunkStart = System.nanoTime();
      List<Event> chunk =
          events.subList(c * events.size() / chunks, (c + 1) * events.size() / chunks);
      List<Event> resends = new ArrayList<>();
      for (int i = 0; i < chunk.size() / 10; i++) {
        resends.add(events.get(random.nextInt((c + 1) * events.size() / chunks)));
      }
      List<String> bad = c == 0 ? OrderEvents.malformed("r" + round) : List.of();
      input.produce(input.add(chunk, resends, bad, random));
      if (fault != null && c == failAt) {
        injected = System.nanoTime();
        inject(fault, victim);
      }
      long rest = 1000 - millis(chunkStart);
      if (rest > 0) {
        Thread.sleep(rest);
      }
    }
    return injected;
  }

  /** {@code e} with ids of its own round, so rounds never share an event or an order. */
  private static Event ofRound(Event e, int round) {
    return new Event(
        "r" + round + "-" + e.eventId(),
        e.orderId() == null ? null : e.orderId() + "-r" + round,
        e.customerId(),
        e.amount(),
        e.currency(),
        e.orderTs());
  }

  private void inject(Fault fault, String victim) throws Exception {
    System.out.println(
        "soak: injecting " + fault + (fault == Fault.BROKER_RESTART ? "" : " into " + victim));
    switch (fault) {
      case TASK_FAILURE -> Files.createFile(SoakQuery.failureFile(lake, victim));
      case PROCESS_KILL -> {
        LakestreamProcess process = processes.get(victim);
        if (process != null) {
          process.signal("KILL").await();
          start(victim);
        }
      }
      case BROKER_RESTART -> broker.restart(Duration.ofSeconds(5));
    }
  }

  private void start(String pipeline) throws IOException {
    String name = pipeline + "-" + starts.merge(pipeline, 1, Integer::sum);
    processes.put(
        pipeline,
        LakestreamProcess.start(
            settings.directory(),
            name,
            SoakQuery.class.getName(),
            List.of("-Xlog:gc:file=" + gcLog(pipeline)),
            List.of(pipeline, lake.toString(), broker.bootstrapServers(), settings.trigger())));
  }

  /** The GC log of the pipeline's latest process ({@code <pipeline>-<start>.gc.log}). */
  private Path gcLog(String pipeline) {
    return settings.directory().resolve(pipeline + "-" + starts.get(pipeline) + ".gc.log");
  }

  private void awaitSilverTable() throws Exception {
    Path log = lake.resolve(OrdersSilver.SILVER_TABLE).resolve("_delta_log");
    long deadline = System.nanoTime() + CAUGHT_UP.toNanos();
    while (!Files.exists(log.resolve("00000000000000000000.json"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("silver wrote no table within " + CAUGHT_UP);
      }
      Thread.sleep(200);
    }
  }

  /** Waits until every output equals its model; then samples state and heap. */
  private Round check(int round) throws Exception {
    long t = System.nanoTime();
    LakehouseInput.Models models = input.models();
    String mismatch = mismatch(models);
    while (mismatch != null && System.nanoTime() - t < CAUGHT_UP.toNanos()) {
      Thread.sleep(1000);
      mismatch = mismatch(models);
    }
    long caughtUp = millis(t);
    Map<String, Long> state = new LinkedHashMap<>();
    state.put("bronze", stateRows("bronze"));
    state.put("silver", stateRows("silver"));
    Map<String, Long> heap = new LinkedHashMap<>();
    for (String pipeline : processes.keySet()) {
      heap.put(pipeline, liveHeap(pipeline));
    }
    int from = Math.max(0, distinctPerRound.size() - ROUNDS_IN_STATE);
    long bound =
        distinctPerRound.subList(from, distinctPerRound.size()).stream().mapToLong(i -> i).sum();
    return new Round(
        round,
        input.produced(),
        models.bronze().size(),
        caughtUp,
        mismatch == null,
        mismatch,
        state,
        bound,
        heap);
  }

  /** The first output that differs from its model, or null when all match. */
  private String mismatch(LakehouseInput.Models models) throws Exception {
    List<String> bronze = new ArrayList<>();
    for (Object[] row : rows("orders_bronze")) {
      bronze.add(Arrays.toString(row));
    }
    if (!sorted(bronze).equals(sorted(models.bronze()))) {
      return "orders_bronze has " + bronze.size() + " rows, the model " + models.bronze().size();
    }
    List<String> dead = deadLetters();
    if (!sorted(dead).equals(sorted(models.bronzeDeadLetters()))) {
      return "orders_bronze_dead_letters has "
          + dead.size()
          + " records, the model "
          + models.bronzeDeadLetters().size();
    }
    Map<String, List<Object>> silver = OrderEvents.silver(table(OrdersSilver.SILVER_TABLE));
    if (!silver.equals(models.silver())) {
      return "orders_silver has " + silver.size() + " orders, the model " + models.silver().size();
    }
    List<List<Object>> quarantine = OrderEvents.quarantine(table(OrdersSilver.QUARANTINE_TABLE));
    if (!quarantine.equals(models.quarantine())) {
      return "orders_silver_quarantine has "
          + quarantine.size()
          + " rows, the model "
          + models.quarantine().size();
    }
    var gold = SilverOrders.gold(table("orders_gold_daily"));
    if (!gold.equals(models.gold())) {
      return "orders_gold_daily is " + gold + ", the model " + models.gold();
    }
    return null;
  }

  private DeltaTable table(String name) {
    return DeltaTable.forPath(lake.resolve(name).toUri().toString());
  }

  private List<Object[]> rows(String name) {
    if (!Files.exists(lake.resolve(name).resolve("_delta_log"))) {
      return List.of();
    }
    return new DeltaTableReader(table(name)).readLatest();
  }

  /** The raw values of the committed bronze dead letters ({@code *.jsonl} at the top level). */
  private List<String> deadLetters() throws IOException {
    Path dir = lake.resolve("orders_bronze_dead_letters");
    List<String> raws = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return raws;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(file)) {
          if (!line.isBlank()) {
            raws.add(JSON.readTree(line).get("raw").asText());
          }
        }
      }
    }
    return raws;
  }

  /** {@code numRowsTotal} of the query's stateful operators in its newest progress report. */
  private long stateRows(String pipeline) throws IOException {
    Path progress = lake.resolve("_checkpoints").resolve(pipeline).resolve("progress");
    if (!Files.isDirectory(progress)) {
      return 0;
    }
    Path newest;
    try (Stream<Path> files = Files.list(progress)) {
      newest =
          files
              .filter(p -> p.getFileName().toString().matches("\\d+"))
              .max((a, b) -> Long.compare(epoch(a), epoch(b)))
              .orElse(null);
    }
    if (newest == null) {
      return 0;
    }
    long rows = 0;
    for (JsonNode operator : JSON.readTree(newest.toFile()).path("stateOperators")) {
      rows += operator.path("numRowsTotal").asLong();
    }
    return rows;
  }

  private static long epoch(Path progressFile) {
    return Long.parseLong(progressFile.getFileName().toString());
  }

  /** The live heap of the pipeline's process after a full collection, or -1 if not sampled. */
  private long liveHeap(String pipeline) throws Exception {
    LakestreamProcess process = processes.get(pipeline);
    Path gcLog = gcLog(pipeline);
    int before = HeapSamples.fullCollections(gcLog).count();
    Process jcmd =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid()),
                "GC.run")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    jcmd.waitFor();
    for (int i = 0; i < 20; i++) {
      HeapSamples.FullCollections after = HeapSamples.fullCollections(gcLog);
      if (after.count() > before) {
        return after.lastMib();
      }
      Thread.sleep(100);
    }
    return -1;
  }

  /** Lines of the processes' output that a healthy run must not print. */
  private void scanLogs() throws IOException {
    try (Stream<Path> files = Files.list(settings.directory())) {
      for (Path file : files.filter(p -> p.toString().endsWith(".out")).sorted().toList()) {
        for (String line : Files.readAllLines(file)) {
          if (line.contains("OutOfMemoryError") || line.contains("QueryAlreadyRunning")) {
            logProblems.add(file.getFileName() + ": " + line);
          }
        }
      }
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  static String describe(Round r) {
    return String.format(
        "round %d: %d records, bronze %d rows, %s in %d ms; state %s (bound %d); live heap MiB %s",
        r.number(),
        r.records(),
        r.bronzeRows(),
        r.matched() ? "all outputs = model" : "MISMATCH (" + r.mismatch() + ")",
        r.caughtUpMillis(),
        r.stateRows(),
        r.stateBound(),
        r.liveHeapMib());
  }

  private static long millis(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }
}
