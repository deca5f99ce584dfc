package io.lakestream.pipelines.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.silver.OrdersSilver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the demo's tables hold after a run, as printed at its end: rows and newest Delta version of
 * bronze ({@code orders}), silver, its quarantine and gold; the event ids bronze holds twice (none,
 * when the dedup works); the dead letters; and the duplicates dropped, which is every row the
 * bronze query read (the {@code numInputRows} of its {@code progress/}) that is neither in bronze
 * nor a dead letter. Read from the tables and the checkpoint location, not from counters of the
 * run, so it is also right after a run that was stopped and resumed.
 *
 * @param bronzeRows rows of {@code orders}
 * @param bronzeDuplicateEventIds rows of {@code orders} whose event id another row also has
 * @param deadLetters lines of {@code orders_dead_letters}
 * @param bronzeInputRows rows the bronze query read, over all its epochs
 * @param tables each table's line: name, rows, newest version
 */
@Internal
public record DemoSummary(
    long bronzeRows,
    long bronzeDuplicateEventIds,
    long deadLetters,
    long bronzeInputRows,
    List<TableCount> tables) {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Rows and newest version of one Delta table; version -1 when there is no table. */
  public record TableCount(String stage, String name, long rows, long version) {}

  /**
   * Reads the demo's tables below {@code output} and its bronze query's {@code progress/}.
   *
   * @throws UncheckedIOException if a local file cannot be read
   * @throws IllegalArgumentException if {@code output} or the location is not a local directory
   */
  public static DemoSummary read(URI output, String bronzeCheckpointLocation) {
    String base = output.toString().replaceAll("/+$", "");
    Path dir = Path.of(output);
    DeltaTableReader bronze = new DeltaTableReader(DeltaTable.forPath(base + "/orders"));
    List<Object[]> rows = bronze.readLatest();
    Set<Object> eventIds = new HashSet<>();
    long duplicateIds = rows.stream().filter(r -> !eventIds.add(r[0])).count();
    List<TableCount> tables =
        List.of(
            new TableCount("bronze", "orders", rows.size(), bronze.latestVersion()),
            count("silver", base, OrdersSilver.SILVER_TABLE),
            count("", base, OrdersSilver.QUARANTINE_TABLE),
            count("gold", base, "orders_gold_daily"));
    return new DemoSummary(
        rows.size(),
        duplicateIds,
        lines(dir.resolve("orders_dead_letters")),
        inputRows(localPath(bronzeCheckpointLocation).resolve("progress")),
        tables);
  }

  /** Duplicates the bronze query dropped: rows it read that are neither in bronze nor dead. */
  public long duplicatesDropped() {
    return bronzeInputRows - bronzeRows - deadLetters;
  }

  /** The summary as printed. */
  public List<String> lines() {
    List<String> lines = new java.util.ArrayList<>();
    lines.add("Demo summary:");
    for (TableCount t : tables) {
      lines.add(
          String.format(
              Locale.ROOT,
              "  %-8s %-26s %,9d rows  %s",
              t.stage(),
              t.name(),
              t.rows(),
              t.version() < 0 ? "(no table yet)" : "Delta version " + t.version()));
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "  bronze read %,d records: %,d duplicates dropped (dropDuplicatesWithinWatermark on"
                + " event_id), %,d dead letters in orders_dead_letters; event ids twice in"
                + " bronze: %,d",
            bronzeInputRows,
            duplicatesDropped(),
            deadLetters,
            bronzeDuplicateEventIds));
    return lines;
  }

  private static Path localPath(String location) {
    URI uri = URI.create(location);
    return uri.getScheme() == null ? Path.of(location) : Path.of(uri);
  }

  private static TableCount count(String stage, String base, String name) {
    DeltaTable table = DeltaTable.forPath(base + "/" + name);
    if (table.latestSnapshot().isEmpty()) {
      return new TableCount(stage, name, 0, -1);
    }
    DeltaTableReader reader = new DeltaTableReader(table);
    return new TableCount(stage, name, reader.count(), reader.latestVersion());
  }

  private static long lines(Path table) {
    if (!Files.isDirectory(table)) {
      return 0;
    }
    long lines = 0;
    try (Stream<Path> files = Files.list(table)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        try (Stream<String> content = Files.lines(file)) {
          lines += content.count();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  private static long inputRows(Path progress) {
    if (!Files.isDirectory(progress)) {
      return 0;
    }
    long rows = 0;
    try (Stream<Path> epochs = Files.list(progress)) {
      for (Path epoch : epochs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        rows += MAPPER.readTree(epoch.toFile()).path("numInputRows").asLong();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}
