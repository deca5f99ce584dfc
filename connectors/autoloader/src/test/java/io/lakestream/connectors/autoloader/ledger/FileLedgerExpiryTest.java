package io.lakestream.connectors.autoloader.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.format.FileFormat;
import io.lakestream.connectors.autoloader.format.FileRowReader;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger's expiry by {@code cloudFiles.maxFileAge}, on RocksDB state and real JSON files: the
 * ledger stays bounded while files age out, a file reappearing after its entry expired is not read
 * again (also at the boundary instant), and a ledger written without expiry expires after a
 * restore.
 */
class FileLedgerExpiryTest {
  private static final long MAX_AGE = 1_000;

  @TempDir Path input;

  @Test
  void ledgerStaysBoundedAsFilesAgeOut() throws Exception {
    FileLedgerFunction ledger = ledger(MAX_AGE);
    FileLedgerOperator operator = new FileLedgerOperator(ledger);
    try (var harness = harness(operator)) {
      harness.open();
      List<Long> sizes = new ArrayList<>();
      // 40 discoveries, 100 ms apart, of 5 new files each, modified when discovered
      for (int round = 0; round < 40; round++) {
        long now = round * 100L;
        harness.setProcessingTime(now);
        for (int i = 0; i < 5; i++) {
          harness.processElement(file("r" + round + "-" + i, now), now);
        }
        sizes.add(operator.ledgerSize());
        assertThat(ledger.ledgerEntries()).isEqualTo(operator.ledgerSize()); // the gauge
      }
      // files live MAX_AGE (1 s = 10 rounds) plus the boundary ms: at most 11 rounds of 5 files
      assertThat(sizes.subList(15, 40)).allSatisfy(size -> assertThat(size).isBetween(50L, 55L));
      assertThat(harness.extractOutputValues()).hasSize(200);
    }
  }

  @Test
  void aFileReappearingAfterItsEntryExpiredIsNotReadAgain() throws Exception {
    FileLedgerOperator operator = new FileLedgerOperator(ledger(MAX_AGE));
    try (var harness = harness(operator)) {
      harness.open();
      DiscoveredFile old = file("old", 0);
      harness.setProcessingTime(0);
      harness.processElement(old, 0);
      // the last instant the listing admits it: still in the ledger
      harness.setProcessingTime(MAX_AGE);
      harness.processElement(old, 0);
      assertThat(operator.ledgerSize()).isEqualTo(1);
      // one ms later the entry is gone, and the file is refused by age, not read again
      harness.setProcessingTime(MAX_AGE + 1);
      assertThat(operator.ledgerSize()).isZero();
      harness.processElement(old, 0);
      harness.setProcessingTime(10 * MAX_AGE);
      harness.processElement(old, 0);
      assertThat(harness.extractOutputValues()).hasSize(1);
      assertThat(operator.ledgerSize()).isZero();
    }
  }

  @Test
  void aLedgerWrittenWithoutExpiryExpiresAfterRestore() throws Exception {
    OperatorSubtaskState unbounded;
    // the ledger as written before expiry: plain KeyedProcessOperator, no timers
    try (var harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(ledger(0)), (DiscoveredFile f) -> f.key, Types.STRING)) {
      harness.setStateBackend(new EmbeddedRocksDBStateBackend());
      harness.open();
      harness.setProcessingTime(0);
      harness.processElement(file("a", 0), 0);
      harness.processElement(file("b", 500), 0);
      assertThat(harness.numProcessingTimeTimers()).isZero();
      unbounded = harness.snapshot(1, 1);
    }
    FileLedgerFunction ledger = ledger(MAX_AGE);
    FileLedgerOperator operator = new FileLedgerOperator(ledger);
    try (var harness = harness(operator)) {
      harness.initializeState(unbounded);
      harness.open();
      assertThat(operator.entriesRestored()).isEqualTo(2);
      assertThat(ledger.ledgerEntries()).isEqualTo(2);
      harness.setProcessingTime(MAX_AGE);
      harness.processElement(file("a", 0), MAX_AGE); // restored entry: not read again
      harness.setProcessingTime(MAX_AGE + 1);
      assertThat(operator.ledgerSize()).isEqualTo(1);
      harness.setProcessingTime(MAX_AGE + 501);
      assertThat(operator.ledgerSize()).isZero();
      harness.processElement(file("b", 500), MAX_AGE + 501);
      assertThat(harness.extractOutputValues()).isEmpty();
    }
  }

  private KeyedOneInputStreamOperatorTestHarness<String, DiscoveredFile, Row> harness(
      FileLedgerFunction ledger) throws Exception {
    return harness(new FileLedgerOperator(ledger));
  }

  private KeyedOneInputStreamOperatorTestHarness<String, DiscoveredFile, Row> harness(
      FileLedgerOperator operator) throws Exception {
    var harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            operator, (DiscoveredFile f) -> f.key, Types.STRING);
    harness.setStateBackend(new EmbeddedRocksDBStateBackend());
    return harness;
  }

  /** A one-row JSON file named {@code key}, with the given modification time. */
  private DiscoveredFile file(String key, long modificationTime) throws Exception {
    Path path = input.resolve(key + ".json");
    if (!Files.exists(path)) {
      Files.writeString(path, "{\"id\": \"" + key + "\"}\n", StandardCharsets.UTF_8);
    }
    return new DiscoveredFile(key + ".json", Files.size(path), modificationTime);
  }

  private FileLedgerFunction ledger(long maxAgeMillis) {
    FileRowReader reader =
        new FileRowReader(
            input.toUri().toString(),
            Map.of(),
            FileFormat.JSON,
            new RecordConverter(
                new AutoLoaderSchema(
                    List.of(new Column("id", ColumnType.STRING)), List.of(), false)),
            SchemaEvolutionMode.NONE,
            null,
            0,
            false,
            false);
    return new FileLedgerFunction(reader, null, false, maxAgeMillis);
  }
}
