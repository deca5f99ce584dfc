package io.lakestream.pipelines.restore;

import static io.lakestream.pipelines.restore.LegacyCheckpoints.BRONZE;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.DEMO;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Checkpoint locations, savepoints and tables written by an earlier lakestream (the code before the
 * module redesign, see {@link LegacyCheckpoints}) are restored by this code: bronze reports no
 * restart incompatibility and continues with exactly the rows that were not read yet, nothing lost
 * and nothing twice, with its dedup state intact. The demo, whose plan has changed since (it now
 * deduplicates), is refused with a message that says how to start over.
 */
class LegacyRestoreITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static AutoCloseable lock;

  @BeforeAll
  static void placeFixtures() throws Exception {
    lock = LegacyCheckpoints.lock();
    LegacyCheckpoints.delete(ROOT);
    Path resources = Path.of(LegacyRestoreITCase.class.getResource("/legacy-restore").toURI());
    LegacyCheckpoints.copy(resources, ROOT);
  }

  @AfterAll
  static void removeFixtures() throws Exception {
    LegacyCheckpoints.delete(ROOT);
    lock.close();
  }

  /**
   * The old demo wrote every generated record, duplicates too, into {@code orders}; the demo now
   * drops duplicates within the watermark, a stateful operator the old checkpoint has no state for
   * and whose table it cannot clean. So the run is refused before anything runs, saying how to
   * start over, and leaves the old tables as they were (never silently fresh on top of them).
   */
  @Test
  void theDemoBeforeTheMedallionIsRefusedWithWhatToDoAndLeftAsItWas() throws Exception {
    Path demo = ROOT.resolve(DEMO);
    Path location = demo.resolve("_checkpoints/demo");
    long epochsBefore = LegacyCheckpoints.lastEpoch(location);
    long versionBefore = LegacyCheckpoints.deltaVersion(demo.resolve("orders"));
    List<String> rowsBefore = LegacyCheckpoints.deltaRows(demo.resolve("orders"));

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldErr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = LegacyCheckpoints.runDemo(demo, LegacyCheckpoints.DEMO_ROWS_AFTER);
    } finally {
      System.setErr(oldErr);
    }

    String message = err.toString(StandardCharsets.UTF_8);
    assertThat(code).as(message).isEqualTo(2);
    assertThat(message)
        .contains("[INCOMPATIBLE_RESTART]")
        .contains("stateful operator 'dedup-orders' was added")
        .contains("start the demo over with a new --output directory")
        .contains("the demo of an earlier lakestream");
    assertThat(LegacyCheckpoints.lastEpoch(location)).isEqualTo(epochsBefore);
    assertThat(LegacyCheckpoints.deltaVersion(demo.resolve("orders"))).isEqualTo(versionBefore);
    assertThat(LegacyCheckpoints.deltaRows(demo.resolve("orders"))).isEqualTo(rowsBefore);
    assertThat(demo.resolve("orders_silver")).doesNotExist();
  }

  @Test
  void bronzeResumesFromItsOldSavepointWithItsDedupState() throws Exception {
    Path bronze = ROOT.resolve(BRONZE);
    Path location = bronze.resolve("_checkpoints/bronze");
    long epochsBefore = LegacyCheckpoints.lastEpoch(location);
    long versionBefore = LegacyCheckpoints.deltaVersion(bronze.resolve("orders_bronze"));
    assertThat(LegacyCheckpoints.firstColumn(bronze.resolve("orders_bronze")))
        .containsExactlyElementsOf(eventIds(LegacyCheckpoints.BRONZE_ORDERS_BEFORE));

    // The same records at the same offsets as when the fixture was written, then new ones that
    // also re-send orders of the first run (only the restored dedup state can drop those).
    KAFKA.createTopic("orders", LegacyCheckpoints.BRONZE_PARTITIONS);
    List<String> before = LegacyCheckpoints.bronzeBatchBefore();
    List<String> after = LegacyCheckpoints.bronzeBatchAfter();
    List<String> all = new ArrayList<>(before);
    all.addAll(after);
    LegacyCheckpoints.produce(KAFKA.bootstrapServers(), all);

    assertThat(LegacyCheckpoints.runBronze(bronze, KAFKA.bootstrapServers())).isZero();

    assertThat(LegacyCheckpoints.inputRows(location, epochsBefore))
        .as("the restored run reads only the records after the old run's offsets")
        .isEqualTo(after.size());
    assertThat(LegacyCheckpoints.firstColumn(bronze.resolve("orders_bronze")))
        .as("every distinct order once: the re-sent old ones were dropped by the restored state")
        .containsExactlyElementsOf(eventIds(LegacyCheckpoints.BRONZE_ORDERS_AFTER));
    assertThat(LegacyCheckpoints.jsonLines(bronze.resolve("orders_bronze_dead_letters")))
        .hasSize(30);
    LegacyCheckpoints.assertOneVersionPerEpoch(
        bronze.resolve("orders_bronze"), location, "bronze-sink", epochsBefore, versionBefore);
  }

  private static List<String> eventIds(int n) {
    return IntStream.range(0, n).mapToObj(i -> "e-" + i).sorted().toList();
  }
}
