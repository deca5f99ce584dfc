package io.lakestream.connectors.autoloader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.sink.EpochListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.types.Row;

/**
 * The exactly-once JSON-lines sink the Auto Loader tests write to (one line per row: the fields,
 * tab-separated, null as {@code \N}) and what it committed.
 */
public final class CommittedRows {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path dir;

  public CommittedRows(Path dir) {
    this.dir = dir;
  }

  public Sink<Row> sink() {
    return JsonLinesFileSink.create(dir.toString(), CommittedRows::encode, EpochListener.none());
  }

  static String encode(Row row) {
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < row.getArity(); i++) {
      Object value = row.getField(i);
      fields.add(value == null ? "\\N" : value.toString());
    }
    return String.join("\t", fields);
  }

  /** Committed lines, each split into fields. */
  public List<String[]> rows() {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<String[]> rows = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(file)) {
          rows.add(line.split("\t", -1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /**
   * Checks the table's epoch markers ({@code _commits/N}: files and rows the epoch committed)
   * against its data files: every committed file and row belongs to exactly one epoch.
   */
  public void assertEachEpochCommittedOnce() {
    long files = 0;
    long rows = 0;
    try (Stream<Path> markers = Files.list(dir.resolve("_commits"));
        Stream<Path> data = Files.list(dir)) {
      for (Path marker : markers.toList()) {
        JsonNode m = JSON.readTree(marker.toFile());
        files += m.get("files").asLong();
        rows += m.get("rows").asLong();
      }
      long dataFiles = data.filter(f -> f.getFileName().toString().endsWith(".jsonl")).count();
      if (files != dataFiles || rows != rows().size()) {
        throw new AssertionError(
            "the epoch markers in "
                + dir
                + " count "
                + files
                + " files and "
                + rows
                + " rows, the table holds "
                + dataFiles
                + " files and "
                + rows().size()
                + " rows: an epoch was committed twice, or not marked");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits up to 120 s for {@code condition}. */
  public static void await(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }
}
