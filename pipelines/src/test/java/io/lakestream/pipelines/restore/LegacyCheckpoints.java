package io.lakestream.pipelines.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The checkpoint locations and tables that {@link LegacyRestoreITCase} restores, and how they were
 * made. They were written by lakestream as of commit 4bbfbdf (before the module redesign) with
 * {@link LegacyFixtureWriter}, and are committed under {@code src/test/resources/legacy-restore}.
 *
 * <p>Flink savepoints, the query metadata (its fingerprint names the sinks' table paths) and the
 * sinks' committables hold absolute paths, so a fixture is restored at the absolute path it was
 * written at: {@link #ROOT}. A file lock keeps two test runs on one machine from sharing it.
 */
final class LegacyCheckpoints {
  /** Where the fixtures were written and are restored. */
  static final Path ROOT = Path.of("/tmp/lakestream-legacy-restore");

  /** Where they are committed (relative to the pipelines module). */
  static final Path RESOURCES = Path.of("src/test/resources/legacy-restore");

  static final String DEMO = "demo";
  static final String BRONZE = "bronze";

  /** Demo rows read by the fixture's run and by the restored run. */
  static final int DEMO_ROWS_BEFORE = 20_000;

  static final int DEMO_ROWS_AFTER = 30_000;

  /** Bronze orders produced before the fixture's run, and the new ones after it. */
  static final int BRONZE_ORDERS_BEFORE = 2_000;

  static final int BRONZE_ORDERS_AFTER = 3_000;
  static final int BRONZE_PARTITIONS = 3;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private LegacyCheckpoints() {}

  /** Holds the machine-wide lock on {@link #ROOT} until closed. */
  static AutoCloseable lock() throws IOException {
    Files.createDirectories(ROOT.getParent());
    FileChannel channel =
        FileChannel.open(
            ROOT.getParent().resolve("lakestream-legacy-restore.lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
    FileLock lock = channel.lock();
    return () -> {
      lock.release();
      channel.close();
    };
  }

  static int runDemo(Path output, int rows) {
    return LakestreamCli.execute(
        "run",
        "demo",
        "--rows",
        Integer.toString(rows),
        "--rows-per-second",
        "0",
        "--max-rows-per-trigger",
        "7000",
        "--output",
        output.toString());
  }

  static int runBronze(Path output, String bootstrapServers) {
    return LakestreamCli.execute(
        "run",
        "bronze",
        "-o",
        "kafka.bootstrap.servers=" + bootstrapServers,
        "-o",
        "maxOffsetsPerTrigger=700",
        "--trigger",
        "availableNow",
        "--output",
        output.toString());
  }

  private static String orderJson(int i) {
    return "{\"event_id\":\"e-"
        + i
        + "\",\"order_id\":\"o-"
        + i
        + "\",\"customer_id\":\"c-"
        + (i % 97)
        + "\",\"amount\":"
        + (i % 500)
        + ".25,\"currency\":\""
        + (i % 3 == 0 ? "EUR" : "USD")
        + "\",\"order_ts\":\""
        + T0.plusSeconds(i % 600)
        + "\"}";
  }

  /**
   * The bronze input of one batch, in a fixed order: orders {@code from..to-1}, {@code resent} of
   * earlier orders sent again (seeded), and {@code malformed} bad records.
   */
  static List<String> bronzeBatch(int from, int to, int resent, int malformed, long seed) {
    Random random = new Random(seed);
    List<String> values = new ArrayList<>();
    for (int i = from; i < to; i++) {
      values.add(orderJson(i));
    }
    random.ints(resent, 0, to).forEach(i -> values.add(orderJson(i)));
    for (int m = 0; m < malformed; m++) {
      values.add(m % 2 == 0 ? "{\"event_id\":\"bad-" + seed + "-" + m + "\"" : "{\"event_id\":1");
    }
    Collections.shuffle(values, random);
    return values;
  }

  static List<String> bronzeBatchBefore() {
    return bronzeBatch(0, BRONZE_ORDERS_BEFORE, 200, 20, 1);
  }

  static List<String> bronzeBatchAfter() {
    return bronzeBatch(BRONZE_ORDERS_BEFORE, BRONZE_ORDERS_AFTER, 150, 10, 2);
  }

  /**
   * Produces {@code values} to topic {@code orders}, value {@code i} to partition {@code i % 3},
   * one at a time: the same values always get the same partitions and offsets.
   */
  static void produce(String bootstrapServers, List<String> values) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrapServers);
    props.put("enable.idempotence", "true");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < values.size(); i++) {
        producer.send(new ProducerRecord<>("orders", i % BRONZE_PARTITIONS, null, values.get(i)));
      }
      producer.flush();
    }
  }

  /** The rows of a Delta table, read with Delta Kernel, each as text. */
  static List<String> deltaRows(Path table) throws IOException {
    return new DeltaTableReader(DeltaTable.forPath(table.toUri().toString()))
        .readLatest().stream().map(Arrays::toString).sorted().toList();
  }

  /** The first column of every row of a Delta table, sorted. */
  static List<String> firstColumn(Path table) throws IOException {
    List<String> ids = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(table.toUri().toString())).readLatest()) {
      ids.add(String.valueOf(row[0]));
    }
    ids.sort(null);
    return ids;
  }

  /** Every line of the JSON-lines files of a table, sorted. */
  static List<String> jsonLines(Path table) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(table)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        lines.addAll(Files.readAllLines(file));
      }
    }
    lines.sort(null);
    return lines;
  }

  /** The {@code raw} field of every dead letter of a JSON-lines table, sorted. */
  static List<String> deadLetterRaws(Path table) throws IOException {
    List<String> raws = new ArrayList<>();
    for (String line : jsonLines(table)) {
      raws.add(MAPPER.readTree(line).path("raw").asText());
    }
    raws.sort(null);
    return raws;
  }

  /** The newest version of a Delta table. */
  static long deltaVersion(Path table) {
    List<DeltaLogTxns.Commit> commits = DeltaLogTxns.read(table).commits();
    return commits.get(commits.size() - 1).version();
  }

  /**
   * Checks that each epoch after {@code afterEpoch} whose commit record in the checkpoint location
   * names a Delta version of {@code table} is that version's only txn, and that every version after
   * {@code afterVersion} belongs to such an epoch: one Delta version per epoch that wrote.
   */
  static void assertOneVersionPerEpoch(
      Path table, Path checkpointLocation, String sink, long afterEpoch, long afterVersion)
      throws IOException {
    Map<Long, Long> epochByVersion = new TreeMap<>();
    try (Stream<Path> epochs = Files.list(checkpointLocation.resolve("commits"))) {
      for (Path epoch : epochs.toList()) {
        long id = Long.parseLong(epoch.getFileName().toString());
        Path record = epoch.resolve(sink);
        String detail =
            Files.exists(record) ? MAPPER.readTree(record.toFile()).path("detail").asText("") : "";
        if (id > afterEpoch && detail.startsWith("version=")) {
          epochByVersion.put(Long.parseLong(detail.substring("version=".length())), id);
        }
      }
    }
    DeltaLogTxns log = DeltaLogTxns.read(table).assertEachEpochOnce(afterVersion);
    Map<Long, Long> actual = new TreeMap<>();
    for (DeltaLogTxns.Commit c : log.commits()) {
      if (c.version() > afterVersion) {
        assertThat(c.txns()).as("txns of version %d", c.version()).hasSize(1);
        actual.put(c.version(), c.txns().values().iterator().next());
      }
    }
    assertThat(actual).as("Delta version -> epoch").isEqualTo(epochByVersion).isNotEmpty();
  }

  /** The epochs of a checkpoint location's {@code progress/} and their numInputRows. */
  static long inputRows(Path checkpointLocation, long afterEpoch) throws IOException {
    long rows = 0;
    try (Stream<Path> epochs = Files.list(checkpointLocation.resolve("progress"))) {
      for (Path epoch : epochs.toList()) {
        if (Long.parseLong(epoch.getFileName().toString()) > afterEpoch) {
          JsonNode progress = MAPPER.readTree(epoch.toFile());
          rows += progress.path("numInputRows").asLong();
        }
      }
    }
    return rows;
  }

  /** The newest epoch in {@code commits/}. */
  static long lastEpoch(Path checkpointLocation) throws IOException {
    try (Stream<Path> epochs = Files.list(checkpointLocation.resolve("commits"))) {
      return epochs.mapToLong(p -> Long.parseLong(p.getFileName().toString())).max().orElse(0);
    }
  }

  static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.delete(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
