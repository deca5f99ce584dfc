package io.lakestream.runtime;

import static io.lakestream.runtime.GuardsFixture.COUNTER;
import static io.lakestream.runtime.GuardsFixture.RELAY;
import static io.lakestream.runtime.GuardsFixture.SINK;
import static io.lakestream.runtime.GuardsFixture.collectedCounts;
import static io.lakestream.runtime.GuardsFixture.contents;
import static io.lakestream.runtime.GuardsFixture.hashmap;
import static io.lakestream.runtime.GuardsFixture.runToEnd;
import static io.lakestream.runtime.GuardsFixture.settledContents;
import static io.lakestream.runtime.GuardsFixture.start;
import static io.lakestream.runtime.GuardsFixture.tableCounts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.GuardsFixture.CountModel;
import io.lakestream.runtime.GuardsFixture.Flow;
import io.lakestream.runtime.GuardsFixture.SinkChoice;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.state.query.IncompatibleRestartException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refused half of the restart matrix: a query completed one availableNow run (RocksDB, the
 * default max parallelism 128); each test restarts it changed in a way its checkpoint cannot follow
 * and expects {@link IncompatibleRestartException} naming the change, thrown before anything runs:
 * the checkpoint location (metadata included) and the table stay exactly as they were. The last
 * test resumes the unchanged query, which still works after all those refusals. The sink matrix
 * (FILE -> KAFKA allowed, KAFKA -> FILE refused) has its own location.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueryGuardsRestartMatrixITCase {
  private static final StateBackendSettings ROCKSDB = StateBackendSettings.defaults();

  private Path tmp;
  private Path location;
  private Path table;
  private Flow flow;
  private final CountModel model = new CountModel();

  @BeforeAll
  void firstRunCompletes(@TempDir Path dir) throws Exception {
    tmp = dir;
    location = tmp.resolve("chk");
    table = tmp.resolve("table");
    flow = new Flow(table);
    runToEnd(location, flow, Trigger.availableNow(), 1, ROCKSDB);
    assertThat(tableCounts(table)).isEqualTo(model.run(200));
    settledContents(location);
  }

  private void assertRefused(
      Flow changed, int parallelism, StateBackendSettings state, String... words) throws Exception {
    Map<String, String> locationBefore = contents(location);
    Map<String, String> tableBefore = contents(table);

    assertThatThrownBy(() -> start(location, changed, Trigger.availableNow(), parallelism, state))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("cannot restart from its checkpoint location")
        .hasMessageContainingAll(words)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");

    assertThat(contents(location)).as("checkpoint location untouched").isEqualTo(locationBefore);
    assertThat(contents(table)).as("table untouched").isEqualTo(tableBefore);
  }

  @Test
  void anAddedSourceIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).sources("numbers", "more-numbers"),
        1,
        ROCKSDB,
        "the source set changed",
        "added [more-numbers (rate)]");
  }

  @Test
  void aRenamedSourceIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).sources("numbers-v2"),
        1,
        ROCKSDB,
        "the source set changed",
        "removed [numbers (rate)]",
        "added [numbers-v2 (rate)]");
  }

  @Test
  void aChangedDeclaredStateSchemaIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).schema("count: ValueState<Long>; v2"),
        1,
        ROCKSDB,
        "state schema of operator '" + COUNTER + "' changed",
        "count: ValueState<Long>; v1",
        "count: ValueState<Long>; v2");
  }

  @Test
  void aChangedKeyTypeIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).stringKey(),
        1,
        ROCKSDB,
        "state schema of operator '" + COUNTER + "' changed",
        "[key Long;",
        "[key String;");
  }

  @Test
  void anAddedStatefulOperatorIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).withRelay(),
        1,
        ROCKSDB,
        "stateful operator '" + RELAY + "' was added",
        "the checkpoint has no state for it");
  }

  @Test
  void aRemovedStatefulOperatorIsRefused() throws Exception {
    assertRefused(
        flow.rows(400).withoutCounter(),
        1,
        ROCKSDB,
        "stateful operator '" + COUNTER + "' was removed",
        "its state would be dropped");
  }

  @Test
  void aChangedStateBackendIsRefused() throws Exception {
    assertRefused(flow.rows(400), 1, hashmap(), "state backend changed from rocksdb to hashmap");
  }

  @Test
  void aChangedMaxParallelismIsRefused() throws Exception {
    assertRefused(
        flow.rows(400),
        1,
        ROCKSDB.withMaxParallelism(256),
        "max parallelism changed from 128 to 256",
        "key groups");
  }

  @Test
  void parallelismAboveMaxParallelismIsRefused() throws Exception {
    assertRefused(
        flow.rows(400), 129, ROCKSDB, "parallelism 129 exceeds the query's max parallelism 128");
  }

  @Test
  void everyProblemIsListedAtOnce() throws Exception {
    assertRefused(
        flow.rows(400).sources("numbers-v2").schema("v2"),
        1,
        hashmap(),
        "the source set changed",
        "state schema of operator",
        "state backend changed");
  }

  @Test
  @Order(Integer.MAX_VALUE)
  void theUnchangedQueryStillResumesAfterTheRefusals() throws Exception {
    Map<Long, Long> before = tableCounts(table);
    runToEnd(location, flow.rows(400), Trigger.availableNow(), 1, ROCKSDB);

    Map<Long, Long> after = tableCounts(table);
    Map<Long, Long> added = new TreeMap<>(after);
    added.keySet().removeAll(before.keySet());
    assertThat(added).as("only the new rows, counts continued").isEqualTo(model.run(400));
    assertThat(after).containsAllEntriesOf(before).hasSize(400);
  }

  /** Sinks: FILE -> KAFKA is allowed (Kafka sees only new rows), KAFKA -> FILE is not. */
  @Test
  void aFileSinkMayBecomeKafkaButKafkaMayNotBecomeFile() throws Exception {
    Path sinkLocation = tmp.resolve("sinks-chk");
    Flow fileFlow = new Flow(tmp.resolve("sinks-table")).sink(SinkChoice.TEST_FILE, "file");
    CountModel counts = new CountModel();
    runToEnd(sinkLocation, fileFlow);
    assertThat(collectedCounts("file")).isEqualTo(counts.run(200));

    Flow kafkaFlow = fileFlow.rows(400).sink(SinkChoice.TEST_KAFKA, "kafka");
    runToEnd(sinkLocation, kafkaFlow);
    assertThat(collectedCounts("kafka"))
        .as("the Kafka sink gets only the new rows, with the counts carried over")
        .isEqualTo(counts.run(400));
    assertThat(collectedCounts("file")).hasSize(200);

    Map<String, String> locationBefore = settledContents(sinkLocation);
    assertThatThrownBy(
            () ->
                start(
                    sinkLocation,
                    kafkaFlow.rows(600).sink(SinkChoice.TEST_FILE, "file"),
                    Trigger.availableNow(),
                    1))
        .isInstanceOf(IncompatibleRestartException.class)
        .hasMessageContaining("sink '" + SINK + "' changed from KAFKA to FILE")
        .hasMessageContaining("restart matrix does not allow")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
    assertThat(contents(sinkLocation)).isEqualTo(locationBefore);
    assertThat(collectedCounts("file")).hasSize(200);
  }

  /**
   * The same switch from the real JSON-lines table (a FILE sink with an aggregator and a committer)
   * to a sink of kind KAFKA: the run restores the availableNow savepoint, drops the old sink's
   * state (all its epochs were committed when the query stopped) and the new sink sees only new
   * rows.
   */
  @Test
  void theJsonLinesTableMayBecomeKafka() throws Exception {
    Path sinkLocation = tmp.resolve("table-to-kafka-chk");
    Path sinkTable = tmp.resolve("table-to-kafka");
    Flow fileFlow = new Flow(sinkTable);
    CountModel counts = new CountModel();
    runToEnd(sinkLocation, fileFlow);
    assertThat(tableCounts(sinkTable)).isEqualTo(counts.run(200));

    runToEnd(sinkLocation, fileFlow.rows(400).sink(SinkChoice.TEST_KAFKA, "table-to-kafka"));
    assertThat(collectedCounts("table-to-kafka")).isEqualTo(counts.run(400));
    assertThat(tableCounts(sinkTable)).hasSize(200);
  }
}
