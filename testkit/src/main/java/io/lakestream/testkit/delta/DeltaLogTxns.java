package io.lakestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The transaction ids ({@code txn} actions) of a local Delta table's commits, read straight from
 * the JSON files of its {@code _delta_log} (no Delta library), for tests that check that each epoch
 * of a query landed in exactly one table version.
 *
 * <p>Row checks alone cannot show this: Delta readers collapse a data file added twice, so an epoch
 * committed twice without its {@code txn} can still read correctly.
 */
public final class DeltaLogTxns {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One commit of the table.
   *
   * @param version the table version
   * @param operation {@code commitInfo.operation}
   * @param txns the commit's {@code txn} actions, app id to txn version (the epoch)
   * @param dataFilesAdded {@code add} actions with {@code dataChange=true}
   */
  public record Commit(
      long version, String operation, Map<String, Long> txns, int dataFilesAdded) {}

  private final List<Commit> commits;

  private DeltaLogTxns(List<Commit> commits) {
    this.commits = commits;
  }

  /**
   * Reads every commit JSON of the table at {@code table} (a local directory).
   *
   * @throws UncheckedIOException if the log cannot be read
   */
  public static DeltaLogTxns read(Path table) {
    Map<Long, Commit> byVersion = new TreeMap<>();
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.matches("\\d{20}\\.json")) {
          long version = Long.parseLong(name.substring(0, 20));
          byVersion.put(version, parse(version, Files.readAllLines(file)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Delta log of " + table, e);
    }
    return new DeltaLogTxns(new ArrayList<>(byVersion.values()));
  }

  private static Commit parse(long version, List<String> lines) throws IOException {
    String operation = "";
    Map<String, Long> txns = new LinkedHashMap<>();
    int added = 0;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode action = MAPPER.readTree(line);
      if (action.has("commitInfo")) {
        operation = action.get("commitInfo").path("operation").asText("");
      } else if (action.has("txn")) {
        JsonNode txn = action.get("txn");
        txns.put(txn.get("appId").asText(), txn.get("version").asLong());
      } else if (action.has("add") && action.get("add").path("dataChange").asBoolean(true)) {
        added++;
      }
    }
    return new Commit(version, operation, txns, added);
  }

  /** Every commit, oldest first. */
  public List<Commit> commits() {
    return commits;
  }

  /** The txn versions (epochs) committed under {@code appId}, in table version order. */
  public List<Long> epochsOf(String appId) {
    return commits.stream()
        .filter(c -> c.txns().containsKey(appId))
        .map(c -> c.txns().get(appId))
        .toList();
  }

  /** Every app id that appears in a {@code txn} action, in order of first appearance. */
  public List<String> appIds() {
    List<String> ids = new ArrayList<>();
    commits.forEach(
        c -> c.txns().keySet().stream().filter(id -> !ids.contains(id)).forEach(ids::add));
    return ids;
  }

  /**
   * Checks that every commit after {@code afterVersion} that added data carries exactly one txn,
   * and that no app id committed the same epoch twice or an epoch out of order.
   *
   * @throws AssertionError naming the offending versions
   */
  public DeltaLogTxns assertEachEpochOnce(long afterVersion) {
    Map<String, Long> last = new LinkedHashMap<>();
    for (Commit c : commits) {
      if (c.version() > afterVersion && c.dataFilesAdded() > 0 && c.txns().size() != 1) {
        throw new AssertionError(
            "version " + c.version() + " added data with txns " + c.txns() + ": expected one");
      }
      for (Map.Entry<String, Long> txn : c.txns().entrySet()) {
        Long previous = last.put(txn.getKey(), txn.getValue());
        if (previous != null && previous >= txn.getValue()) {
          throw new AssertionError(
              "app id "
                  + txn.getKey()
                  + " committed epoch "
                  + txn.getValue()
                  + " in version "
                  + c.version()
                  + " after epoch "
                  + previous
                  + ": an epoch landed twice or out of order");
        }
      }
    }
    return this;
  }

  /** {@link #assertEachEpochOnce(long)} over the whole log. */
  public DeltaLogTxns assertEachEpochOnce() {
    return assertEachEpochOnce(-1);
  }
}
