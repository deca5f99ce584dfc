package io.lakestream.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpochPositionsTest {

  @TempDir Path dir;
  private EpochLog log;

  @BeforeEach
  void setUp() {
    log = new CheckpointLocation(dir.toUri()).epochs();
  }

  private QueryContext query(boolean availableNow) {
    return new QueryContext(
        "q-1",
        "orders",
        "run-1",
        "orders-q-1",
        dir.toUri().toString(),
        availableNow,
        false,
        OutputMode.APPEND);
  }

  private JsonNode offsets(long epoch, String source) throws IOException {
    JsonNode node = log.readOffsets(epoch).get(source);
    assertThat(node).as("offsets/%d/%s", epoch, source).isNotNull();
    return node;
  }

  private static Map<String, Long> offsetsOf(JsonNode record) {
    Map<String, Long> out = new java.util.TreeMap<>();
    record
        .get("offsets")
        .fields()
        .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
    return out;
  }

  @Test
  void reportsAreWrittenWhenTheirCheckpointCompletes() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "rate-src");
    positions.seed(Map.of("partition-0", 0L, "partition-1", 0L));
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L)));
    positions.onReport(new PositionReport(1, Map.of("partition-1", 3L)));

    assertThat(log.offsetEpochs()).isEmpty();

    positions.onCheckpointComplete(1, Map.of("partition-0", 10L, "partition-1", 10L));

    assertThat(dir.resolve("offsets/1/rate-src")).isRegularFile();
    JsonNode record = offsets(1, "rate-src");
    assertThat(record.get("source").asText()).isEqualTo("rate-src");
    assertThat(record.get("epoch").asLong()).isEqualTo(1);
    assertThat(record.get("recordedAt").asText()).isNotBlank();
    assertThat(offsetsOf(record))
        .containsExactly(Map.entry("partition-0", 5L), Map.entry("partition-1", 3L));
    assertThat(record.get("totalOffset").asLong()).isEqualTo(8);
    assertThat(record.get("endOffsets").get("partition-0").asLong()).isEqualTo(10);
    assertThat(record.get("endOffsets").get("partition-1").asLong()).isEqualTo(10);
  }

  /**
   * The latest positions looked up after checkpoint 1 bound epoch 2: its record shows them and the
   * look-up's time; epoch 1's record has neither.
   */
  @Test
  void theLatestPositionsLookedUpForAnEpochAreInItsRecord() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "kafka-src");
    positions.seed(Map.of("partition-0", 0L));
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L)));
    positions.onLatestLookedUp(2, Map.of("partition-0", 42L), 7);
    positions.onCheckpointComplete(1, Map.of());
    positions.onReport(new PositionReport(2, Map.of("partition-0", 9L)));
    positions.onCheckpointComplete(2, Map.of());

    assertThat(offsets(1, "kafka-src").has("latestOffsets")).isFalse();
    JsonNode second = offsets(2, "kafka-src");
    assertThat(second.path("latestOffsets").path("partition-0").asLong()).isEqualTo(42);
    assertThat(second.path("latestOffsetMs").asLong()).isEqualTo(7);
  }

  @Test
  void seededPositionsAreWrittenWithoutReports() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "rate-src");
    positions.seed(Map.of("partition-0", 4L, "partition-1", 6L));

    positions.onCheckpointComplete(3, Map.of());

    JsonNode record = offsets(3, "rate-src");
    assertThat(offsetsOf(record))
        .containsExactly(Map.entry("partition-0", 4L), Map.entry("partition-1", 6L));
    assertThat(record.get("totalOffset").asLong()).isEqualTo(10);
    assertThat(record.has("endOffsets")).isFalse();
  }

  @Test
  void reportsOfLaterCheckpointsWaitForTheirCheckpoint() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "src");
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L)));
    positions.onReport(new PositionReport(2, Map.of("partition-0", 9L)));

    positions.onCheckpointComplete(1, Map.of());
    assertThat(offsetsOf(offsets(1, "src"))).containsExactly(Map.entry("partition-0", 5L));

    positions.onCheckpointComplete(2, Map.of());
    assertThat(offsetsOf(offsets(2, "src"))).containsExactly(Map.entry("partition-0", 9L));
  }

  @Test
  void aSubsumedCheckpointStillGetsItsOwnOffsetsRecord() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "src");
    positions.seed(Map.of("partition-0", 0L, "partition-1", 0L));
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L, "partition-1", 2L)));
    positions.onReport(new PositionReport(2, Map.of("partition-0", 9L)));

    // Flink notifies only checkpoint 2; the sinks commit epoch 1 and 2, so both are recorded
    positions.onCheckpointComplete(2, Map.of());

    assertThat(log.offsetEpochs()).containsExactly(1L, 2L);
    assertThat(offsetsOf(offsets(1, "src")))
        .containsExactly(Map.entry("partition-0", 5L), Map.entry("partition-1", 2L));
    JsonNode record = offsets(2, "src");
    assertThat(offsetsOf(record))
        .containsExactly(Map.entry("partition-0", 9L), Map.entry("partition-1", 2L));
    assertThat(record.get("totalOffset").asLong()).isEqualTo(11);
  }

  @Test
  void positionsCarryOverToLaterEpochs() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "src");
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L, "partition-1", 1L)));
    positions.onCheckpointComplete(1, Map.of());
    positions.onReport(new PositionReport(2, Map.of("partition-1", 4L)));

    positions.onCheckpointComplete(2, Map.of());

    assertThat(offsetsOf(offsets(2, "src")))
        .containsExactly(Map.entry("partition-0", 5L), Map.entry("partition-1", 4L));
    assertThat(offsetsOf(offsets(1, "src")))
        .containsExactly(Map.entry("partition-0", 5L), Map.entry("partition-1", 1L));
  }

  @Test
  void sourceNameIsMadeFileSafe() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "rate: orders/eu");

    positions.onCheckpointComplete(1, Map.of());

    assertThat(dir.resolve("offsets/1/rate__orders_eu")).isRegularFile();
    assertThat(offsets(1, "rate__orders_eu").get("source").asText()).isEqualTo("rate: orders/eu");
  }

  @Test
  void withoutQueryNothingIsWritten() throws IOException {
    EpochPositions positions = new EpochPositions(null, "src");
    positions.onReport(new PositionReport(1, Map.of("partition-0", 5L)));

    assertThatCode(
            () -> {
              positions.onCheckpointComplete(1, Map.of());
              positions.onCaughtUp("partition-0", 1);
              positions.signalIfAllCaughtUp(0);
            })
        .doesNotThrowAnyException();
    try (var children = Files.list(dir)) {
      assertThat(children).isEmpty();
    }
  }

  @Test
  void unwritableLocationDoesNotFailTheCheckpoint() throws IOException {
    Files.writeString(dir.resolve("offsets"), "a file where a directory belongs");
    EpochPositions positions = new EpochPositions(query(false), "src");

    assertThatCode(() -> positions.onCheckpointComplete(1, Map.of())).doesNotThrowAnyException();
  }

  @Test
  void caughtUpIsSignalledWhenAllSplitsCaughtUpInAvailableNowRun() throws IOException {
    EpochPositions positions = new EpochPositions(query(true), "rate-src");

    positions.onCaughtUp("partition-0", 3);
    positions.onCaughtUp("partition-0", 3); // the same split twice counts once
    positions.onCaughtUp("partition-2", 3);
    assertThat(log.caughtUpSources("run-1")).isEmpty();

    positions.onCaughtUp("partition-1", 3);

    assertThat(dir.resolve("runs/run-1/caught-up/rate-src")).isRegularFile();
    assertThat(log.caughtUpSources("run-1")).containsExactly("rate-src");
  }

  @Test
  void caughtUpIsSignalledOnlyOnce() throws IOException {
    EpochPositions positions = new EpochPositions(query(true), "src");
    positions.onCaughtUp("partition-0", 1);
    Path signal = dir.resolve("runs/run-1/caught-up/src");
    assertThat(signal).isRegularFile();
    Files.delete(signal);

    positions.onCaughtUp("partition-0", 1);
    positions.onCaughtUp("partition-1", 1);
    positions.signalIfAllCaughtUp(1);

    assertThat(signal).doesNotExist();
  }

  @Test
  void caughtUpIsNotSignalledOutsideAvailableNowRuns() throws IOException {
    EpochPositions positions = new EpochPositions(query(false), "src");

    positions.onCaughtUp("partition-0", 2);
    positions.onCaughtUp("partition-1", 2);
    positions.signalIfAllCaughtUp(0);

    assertThat(dir.resolve("runs")).doesNotExist();
  }

  @Test
  void sourceWithoutSplitsSignalsAtOnce() throws IOException {
    EpochPositions positions = new EpochPositions(query(true), "src");

    positions.signalIfAllCaughtUp(0);

    assertThat(log.caughtUpSources("run-1")).containsExactly("src");
  }
}
