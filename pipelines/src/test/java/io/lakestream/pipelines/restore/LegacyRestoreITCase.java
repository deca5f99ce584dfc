package io.lakestream.pipelines.restore;

import static io.lakestream.pipelines.restore.LegacyCheckpoints.BRONZE;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.DEMO;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint locations, savepoints and tables written by an earlier lakestream (the code before the
 * module redesign, see {@link LegacyCheckpoints}) are restored by this code: the run reports no
 * restart incompatibility and continues with exactly the rows that were not read yet, nothing lost
 * and nothing twice, with its dedup state intact.
 */
class LegacyRestoreITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static AutoCloseable lock;

  @TempDir Path fresh;

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

  @Test
  void theDemoResumesFromItsOldSavepointAndEndsEqualToACleanRun() throws Exception {
    Path demo = ROOT.resolve(DEMO);
    Path location = demo.resolve("_checkpoints/demo");
    long epochsBefore = LegacyCheckpoints.lastEpoch(location);
    long versionBefore = LegacyCheckpoints.deltaVersion(demo.resolve("orders"));

    assertThat(LegacyCheckpoints.runDemo(demo, LegacyCheckpoints.DEMO_ROWS_AFTER)).isZero();

    assertThat(LegacyCheckpoints.inputRows(location, epochsBefore))
        .as("the restored run reads only the orders after the old run's")
        .isEqualTo(LegacyCheckpoints.DEMO_ROWS_AFTER - LegacyCheckpoints.DEMO_ROWS_BEFORE);
    LegacyCheckpoints.assertOneVersionPerEpoch(
        demo.resolve("orders"), location, "orders-sink", epochsBefore, versionBefore);

    assertThat(LegacyCheckpoints.runDemo(fresh, LegacyCheckpoints.DEMO_ROWS_AFTER)).isZero();
    assertThat(LegacyCheckpoints.deltaRows(demo.resolve("orders")))
        .as("the resumed table equals a clean run's, row for row")
        .containsExactlyElementsOf(LegacyCheckpoints.deltaRows(fresh.resolve("orders")));
    assertThat(LegacyCheckpoints.deadLetterRaws(demo.resolve("orders_dead_letters")))
        .containsExactlyElementsOf(
            LegacyCheckpoints.deadLetterRaws(fresh.resolve("orders_dead_letters")))
        .isNotEmpty();
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
