package io.lakestream.connectors.delta.merge;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a version that another writer committed after a MERGE batch read its snapshot against the
 * batch: whether the batch can be committed on top of it unchanged, whether that version already
 * holds the batch's epoch ({@code txn}), or why they conflict. A conflict is: a metadata or
 * protocol change; a remove of a file the batch rewrites (its rows would come back or be lost); an
 * added data file that may hold one of the batch's source keys, judged by its partition values and
 * statistics (the batch did not see those rows, so it would insert duplicates or miss updates).
 */
final class ConcurrentCommitCheck {
  /** The verdict on one winning version. */
  enum Verdict {
    NO_CONFLICT,
    ALREADY_COMMITTED,
    CONFLICT
  }

  /** A verdict and, for a conflict, why. */
  record Outcome(Verdict verdict, String reason) {}

  private final KernelTablePath root;
  private final Set<String> removedPaths = new HashSet<>();
  private final MergeKeyRanges keyRanges;
  private final String appId;
  private final long epoch;

  ConcurrentCommitCheck(
      String tableRoot,
      List<TargetFile> removed,
      MergeKeyRanges keyRanges,
      String appId,
      long epoch) {
    this.root = KernelTablePath.of(tableRoot);
    for (TargetFile f : removed) {
      removedPaths.add(f.logPath());
      removedPaths.add(resolve(f.logPath()));
      removedPaths.add(f.absolutePath());
    }
    this.keyRanges = keyRanges;
    this.appId = appId;
    this.epoch = epoch;
  }

  /** Judges the JSON action lines of one winning version. */
  Outcome check(List<String> lines) throws IOException {
    Outcome conflict = null;
    for (String line : lines) {
      JsonNode action = MergeCommitFile.JSON.readTree(line);
      JsonNode txn = action.get("txn");
      if (txn != null
          && appId.equals(txn.path("appId").asText())
          && txn.path("version").asLong(-1) >= epoch) {
        return new Outcome(Verdict.ALREADY_COMMITTED, null);
      }
      if (conflict != null) {
        continue;
      }
      if (action.has("metaData") || action.has("protocol")) {
        conflict = new Outcome(Verdict.CONFLICT, "it changed the table's metadata or protocol");
      }
      JsonNode remove = action.get("remove");
      if (remove != null) {
        String path = remove.path("path").asText();
        if (removedPaths.contains(path) || removedPaths.contains(resolve(path))) {
          conflict =
              new Outcome(
                  Verdict.CONFLICT, "it removed data file " + path + ", which this MERGE rewrites");
        }
      }
      JsonNode add = action.get("add");
      if (add != null && add.path("dataChange").asBoolean(true)) {
        Map<String, String> partition = new LinkedHashMap<>();
        add.path("partitionValues")
            .fields()
            .forEachRemaining(
                e ->
                    partition.put(
                        e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        String stats = add.path("stats").isTextual() ? add.path("stats").asText() : null;
        if (keyRanges.mayContainAny(partition, stats)) {
          conflict =
              new Outcome(
                  Verdict.CONFLICT,
                  "it added data file "
                      + add.path("path").asText()
                      + " (partition "
                      + partition
                      + "), which may hold rows with keys of this MERGE batch (by its partition"
                      + " values and statistics)");
        }
      }
    }
    return conflict != null ? conflict : new Outcome(Verdict.NO_CONFLICT, null);
  }

  private String resolve(String path) {
    try {
      return root.resolve(path);
    } catch (Exception e) {
      return path;
    }
  }
}
