package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpochLogTest {

  @TempDir Path dir;
  private EpochLog log;

  @BeforeEach
  void setUp() {
    log = new CheckpointLocation(dir.toUri()).epochs();
  }

  @Test
  void offsetsRoundTripPerSource() throws IOException {
    log.writeOffsets(1, "orders-src", Map.of("partition-0", 10, "partition-1", 12));
    log.writeOffsets(1, "rate-src", Map.of("totalOffset", 5));

    assertThat(dir.resolve("offsets/1/orders-src")).isRegularFile();
    Map<String, JsonNode> offsets = log.readOffsets(1);
    assertThat(offsets).containsOnlyKeys("orders-src", "rate-src");
    assertThat(offsets.get("orders-src").get("partition-0").asLong()).isEqualTo(10);
    assertThat(offsets.get("orders-src").get("partition-1").asLong()).isEqualTo(12);
    assertThat(offsets.get("rate-src").get("totalOffset").asLong()).isEqualTo(5);
  }

  @Test
  void offsetsOfUnrecordedEpochAreEmpty() throws IOException {
    assertThat(log.readOffsets(7)).isEmpty();
    log.writeOffsets(1, "src", Map.of("a", 1));
    assertThat(log.readOffsets(2)).isEmpty();
  }

  @Test
  void rewritingOffsetsOfAnEpochOverwrites() throws IOException {
    log.writeOffsets(3, "src", Map.of("a", 1, "b", 2));
    log.writeOffsets(3, "src", Map.of("a", 9));

    JsonNode node = log.readOffsets(3).get("src");
    assertThat(node.get("a").asLong()).isEqualTo(9);
    assertThat(node.has("b")).isFalse();
  }

  @Test
  void commitsRoundTripPerSink() throws IOException {
    log.writeCommit(4, "delta-sink", Map.of("version", 17, "files", List.of("a.parquet")));
    log.writeCommit(4, "kafka-sink", Map.of("txn", "app-1-4"));

    Map<String, JsonNode> commits = log.readCommits(4);
    assertThat(commits).containsOnlyKeys("delta-sink", "kafka-sink");
    assertThat(commits.get("delta-sink").get("version").asLong()).isEqualTo(17);
    assertThat(commits.get("delta-sink").get("files").get(0).asText()).isEqualTo("a.parquet");
    assertThat(commits.get("kafka-sink").get("txn").asText()).isEqualTo("app-1-4");
    assertThat(log.readCommits(5)).isEmpty();
  }

  @Test
  void progressRoundTrips() throws IOException {
    assertThat(log.readProgress(1)).isEmpty();

    log.writeProgress(1, Map.of("numInputRows", 100));

    assertThat(log.readProgress(1).orElseThrow().get("numInputRows").asLong()).isEqualTo(100);
  }

  @Test
  void committedEpochsAreSortedNumerically() throws IOException {
    for (long epoch : new long[] {10, 9, 100, 2, 11}) {
      log.writeCommit(epoch, "sink", Map.of("epoch", epoch));
    }
    Files.createDirectories(dir.resolve("commits/not-an-epoch"));
    Files.createDirectories(dir.resolve("commits/.tmp"));

    assertThat(log.committedEpochs()).containsExactly(2L, 9L, 10L, 11L, 100L);
  }

  @Test
  void epochListsOfUnusedLocationAreEmpty() throws IOException {
    assertThat(log.committedEpochs()).isEmpty();
    assertThat(log.offsetEpochs()).isEmpty();
    assertThat(log.progressEpochs()).isEmpty();
  }

  @Test
  void offsetAndProgressEpochsAreListedSeparately() throws IOException {
    log.writeOffsets(10, "src", Map.of());
    log.writeOffsets(9, "src", Map.of());
    log.writeProgress(9, Map.of());
    log.writeCommit(8, "sink", Map.of());

    assertThat(log.offsetEpochs()).containsExactly(9L, 10L);
    assertThat(log.progressEpochs()).containsExactly(9L);
    assertThat(log.committedEpochs()).containsExactly(8L);
  }

  @Test
  void caughtUpSourcesArePerRun() throws IOException {
    Instant before = Instant.now();
    log.markCaughtUp("run-1", "orders-src");
    log.markCaughtUp("run-1", "rate-src");
    log.markCaughtUp("run-2", "rate-src");

    assertThat(log.caughtUpSources("run-1")).containsExactly("orders-src", "rate-src");
    assertThat(log.caughtUpSources("run-2")).containsExactly("rate-src");
    assertThat(log.caughtUpSources("run-3")).isEmpty();

    JsonNode signal =
        JsonFiles.MAPPER.readTree(dir.resolve("runs/run-1/caught-up/orders-src").toFile());
    assertThat(signal.get("source").asText()).isEqualTo("orders-src");
    assertThat(Instant.parse(signal.get("at").asText())).isAfterOrEqualTo(before.minusSeconds(1));
  }

  @Test
  void markingCaughtUpTwiceIsHarmless() throws IOException {
    log.markCaughtUp("run-1", "src");
    log.markCaughtUp("run-1", "src");

    assertThat(log.caughtUpSources("run-1")).containsExactly("src");
  }

  @Test
  void caughtUpSourcesAreReportedByFileSafeName() throws IOException {
    log.markCaughtUp("run-1", "kafka: orders/eu");

    assertThat(log.caughtUpSources("run-1")).containsExactly("kafka__orders_eu");
    JsonNode signal =
        JsonFiles.MAPPER.readTree(dir.resolve("runs/run-1/caught-up/kafka__orders_eu").toFile());
    assertThat(signal.get("source").asText()).isEqualTo("kafka: orders/eu");
  }

  @Test
  void pruneKeepsTheNewestEpochsOfEachKind() throws IOException {
    for (long epoch = 1; epoch <= 12; epoch++) {
      log.writeOffsets(epoch, "src", Map.of("e", epoch));
      log.writeProgress(epoch, Map.of("e", epoch));
    }
    for (long epoch = 1; epoch <= 4; epoch++) {
      log.writeCommit(epoch, "sink", Map.of("e", epoch));
    }
    log.markCaughtUp("run-1", "src");

    log.prune(3);

    assertThat(log.offsetEpochs()).containsExactly(10L, 11L, 12L);
    assertThat(log.progressEpochs()).containsExactly(10L, 11L, 12L);
    assertThat(log.committedEpochs()).containsExactly(2L, 3L, 4L);
    assertThat(dir.resolve("offsets/9")).doesNotExist();
    assertThat(dir.resolve("progress/2")).doesNotExist();
    assertThat(log.caughtUpSources("run-1")).containsExactly("src");
  }

  @Test
  void pruneRetainingMoreThanExistDeletesNothing() throws IOException {
    log.writeOffsets(1, "src", Map.of());
    log.writeOffsets(2, "src", Map.of());

    log.prune(5);

    assertThat(log.offsetEpochs()).containsExactly(1L, 2L);
  }

  @Test
  void pruneOnUnusedLocationDoesNothing() throws IOException {
    log.prune(1);

    assertThat(log.offsetEpochs()).isEmpty();
  }

  @Test
  void deleteRunRemovesOnlyThatRunsSignals() throws IOException {
    log.markCaughtUp("run-1", "src");
    log.markCaughtUp("run-2", "src");

    log.deleteRun("run-1");

    assertThat(dir.resolve("runs/run-1")).doesNotExist();
    assertThat(log.caughtUpSources("run-1")).isEmpty();
    assertThat(log.caughtUpSources("run-2")).containsExactly("src");
  }

  @Test
  void deleteUnknownRunDoesNotFail() throws IOException {
    log.deleteRun("never-ran");

    assertThat(dir.resolve("runs")).doesNotExist();
  }

  @Test
  void fileNameKeepsSafeCharactersAndReplacesOthers() {
    assertThat(EpochLog.fileName("orders-src_v1.2")).isEqualTo("orders-src_v1.2");
    assertThat(EpochLog.fileName("kafka: orders/eu")).isEqualTo("kafka__orders_eu");
    assertThat(EpochLog.fileName("a\\b*c?d")).isEqualTo("a_b_c_d");
    assertThat(EpochLog.fileName("über")).isEqualTo("_ber");
  }

  @Test
  void offsetsAndCommitsUseFileSafeNames() throws IOException {
    log.writeOffsets(1, "src/with:odd chars", Map.of("a", 1));
    log.writeCommit(1, "sink/one", Map.of("b", 2));

    assertThat(dir.resolve("offsets/1/src_with_odd_chars")).isRegularFile();
    assertThat(dir.resolve("commits/1/sink_one")).isRegularFile();
    assertThat(log.readOffsets(1)).containsOnlyKeys("src_with_odd_chars");
    assertThat(log.readCommits(1)).containsOnlyKeys("sink_one");
  }
}
