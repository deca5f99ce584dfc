package io.lakestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.testkit.query.EpochRecords;
import io.lakestream.testkit.s3.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The transaction ids ({@code txn} actions) of a Delta table's commits, read straight from the JSON
 * files of its {@code _delta_log} (no Delta library), on a local path or on the test S3 server, for
 * tests that check that each epoch of a query landed in exactly one table version.
 *
 * <p>Row checks alone cannot show this: Delta readers collapse a data file added twice, so an epoch
 * committed twice without its {@code txn} can still read correctly. The checks throw {@link
 * AssertionError} naming the offending versions and epochs.
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

  /**
   * Reads every commit JSON of the table whose root is the key prefix {@code tableKey} (no leading
   * or trailing slash) in the bucket of {@code server}.
   *
   * @throws UncheckedIOException if a commit cannot be parsed
   */
  public static DeltaLogTxns read(S3Server server, String tableKey) {
    String log = tableKey.replaceAll("/+$", "") + "/_delta_log/";
    Map<Long, Commit> byVersion = new TreeMap<>();
    for (String key : server.keys(log)) {
      String name = key.substring(log.length());
      if (name.matches("\\d{20}\\.json")) {
        long version = Long.parseLong(name.substring(0, 20));
        String text = new String(server.read(key), StandardCharsets.UTF_8);
        try {
          byVersion.put(version, parse(version, text.lines().toList()));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot parse " + key, e);
        }
      }
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

  /**
   * The strong form of one version per epoch, against what the query recorded: each epoch whose
   * commit record ({@code commits/N/<sink>} in the local checkpoint location) says {@code
   * COMMITTED} with detail {@code version=V} is version V's only txn, {@code (appId, N)}; each
   * epoch recorded {@code ALREADY_COMMITTED} (a replay the sink skipped) is in the log under {@code
   * appId}; and at least one epoch was committed. With {@link #assertEachEpochOnce()} this shows
   * that every epoch the sink committed is exactly one version.
   *
   * @throws AssertionError naming the epoch and version that disagree
   */
  public DeltaLogTxns assertVersionPerEpoch(String appId, Path checkpointLocation, String sink) {
    Map<Long, Commit> byVersion = new TreeMap<>();
    commits.forEach(c -> byVersion.put(c.version(), c));
    List<Long> epochs = epochsOf(appId);
    int committed = 0;
    for (Map.Entry<Long, JsonNode> record :
        EpochRecords.records(checkpointLocation, sink).entrySet()) {
      long epoch = record.getKey();
      String status = record.getValue().path("status").asText();
      String detail = record.getValue().path("detail").asText("");
      if (status.equals("COMMITTED") && detail.startsWith("version=")) {
        long version = Long.parseLong(detail.substring("version=".length()));
        Commit commit = byVersion.get(version);
        Map<String, Long> txns = commit == null ? Map.of() : commit.txns();
        if (!txns.equals(Map.of(appId, epoch))) {
          throw new AssertionError(
              "epoch "
                  + epoch
                  + " of sink "
                  + sink
                  + " was recorded as version "
                  + version
                  + ", whose txns are "
                  + txns
                  + ": expected only ("
                  + appId
                  + ", "
                  + epoch
                  + ")");
        }
        committed++;
      } else if (status.equals("ALREADY_COMMITTED") && !epochs.contains(epoch)) {
        throw new AssertionError(
            "epoch "
                + epoch
                + " of sink "
                + sink
                + " was skipped as already committed, but the log holds no txn ("
                + appId
                + ", "
                + epoch
                + "); epochs of the app id: "
                + epochs);
      }
    }
    if (committed == 0) {
      throw new AssertionError(
          "sink " + sink + " recorded no committed epoch in " + checkpointLocation);
    }
    return this;
  }
}
