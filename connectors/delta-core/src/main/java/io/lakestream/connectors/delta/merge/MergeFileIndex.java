package io.lakestream.connectors.delta.merge;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The data files of a MERGE target and the {@code txn} version of one application, kept across the
 * epochs of one {@link DeltaMergeCommit}: the first epoch lists the snapshot's files through Kernel
 * (a replay of the whole log, whose cost grows with the table's files); later epochs apply only the
 * {@code add} and {@code remove} actions of the commits since the version held, read from their
 * JSON files, so finding the candidate files of an epoch costs what changed, not the table's size.
 *
 * <p>Falls back to a fresh listing (never to a wrong one) on anything it does not follow: a commit
 * file that is gone (log cleanup) or unreadable, a {@code metaData} or {@code protocol} action, an
 * action it does not know, a remove of a file it does not hold or with another deletion vector, an
 * add of a held path with another deletion vector, a snapshot older than the version held, or more
 * than {@link #MAX_REPLAYED_COMMITS} commits to apply. Thread-safe.
 */
final class MergeFileIndex {
  /** Beyond this many new commits a fresh listing is cheaper than reading each commit. */
  static final int MAX_REPLAYED_COMMITS = 100;

  private static final Set<String> IGNORED =
      Set.of("commitInfo", "cdc", "domainMetadata", "checkpointMetadata");

  /** Reads the JSON lines of one commit of the table's log. */
  interface CommitReader {
    /**
     * @throws FileNotFoundException if the commit file does not exist
     */
    List<String> read(long version) throws IOException;
  }

  /**
   * The files of one version and the application's last committed epoch there.
   *
   * @param incremental whether they were derived from the previous view (false: a fresh listing)
   */
  record View(long version, List<TargetFile> files, Optional<Long> txn, boolean incremental) {}

  private final String appId;
  private long version = -1;
  private LinkedHashMap<String, TargetFile> files; // by absolute path
  private Optional<Long> txn = Optional.empty();

  MergeFileIndex(String appId) {
    this.appId = Objects.requireNonNull(appId, "appId");
  }

  /**
   * The files of {@code snapshot} and the application's {@code txn} version in it: derived from the
   * view held when it can be followed commit by commit, else listed afresh.
   *
   * @throws io.lakestream.connectors.delta.DeltaTableException if a fresh listing fails
   */
  synchronized View at(Engine engine, Snapshot snapshot, String tableRoot, CommitReader commits) {
    long target = snapshot.getVersion();
    if (files != null && target >= version && target - version <= MAX_REPLAYED_COMMITS) {
      LinkedHashMap<String, TargetFile> next = new LinkedHashMap<>(files);
      Optional<Long> nextTxn = advance(next, tableRoot, commits, target);
      if (nextTxn != null) {
        remember(target, next, nextTxn);
        return new View(target, List.copyOf(next.values()), nextTxn, true);
      }
    }
    LinkedHashMap<String, TargetFile> fresh = new LinkedHashMap<>();
    for (TargetFile file : MergePlanner.files(engine, snapshot)) {
      fresh.put(file.absolutePath(), file);
    }
    Optional<Long> freshTxn = snapshot.getLatestTransactionVersion(engine, appId);
    remember(target, fresh, freshTxn);
    return new View(target, List.copyOf(fresh.values()), freshTxn, false);
  }

  /** Forgets the view, so the next call lists afresh. */
  synchronized void clear() {
    files = null;
    version = -1;
    txn = Optional.empty();
  }

  private void remember(long v, LinkedHashMap<String, TargetFile> f, Optional<Long> t) {
    version = v;
    files = f;
    txn = t;
  }

  /**
   * Applies commits {@code version+1 .. target} to {@code next}; the new txn version, or null if
   * some commit cannot be followed.
   */
  private Optional<Long> advance(
      Map<String, TargetFile> next, String tableRoot, CommitReader commits, long target) {
    KernelTablePath root = KernelTablePath.of(tableRoot);
    Optional<Long> t = txn;
    try {
      for (long v = version + 1; v <= target; v++) {
        Commit commit = Commit.parse(commits.read(v), appId);
        if (commit == null || !commit.applyTo(next, root)) {
          return null;
        }
        if (commit.txn != null) {
          t = Optional.of(commit.txn);
        }
      }
    } catch (IOException | RuntimeException e) {
      return null; // a gap, an unreadable or unexpected commit: list afresh
    }
    return t;
  }

  /** The actions of one commit that change the file list. */
  private static final class Commit {
    final List<JsonNode> adds = new ArrayList<>();
    final List<JsonNode> removes = new ArrayList<>();
    Long txn;

    /** The commit's actions, or null if it holds one this index does not follow. */
    static Commit parse(List<String> lines, String appId) throws IOException {
      Commit c = new Commit();
      for (String line : lines) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode action = MergeCommitFile.JSON.readTree(line);
        Iterator<Map.Entry<String, JsonNode>> fields = action.fields();
        while (fields.hasNext()) {
          Map.Entry<String, JsonNode> f = fields.next();
          switch (f.getKey()) {
            case "add" -> c.adds.add(f.getValue());
            case "remove" -> c.removes.add(f.getValue());
            case "txn" -> {
              if (appId.equals(f.getValue().path("appId").asText(null))) {
                c.txn = f.getValue().path("version").asLong();
              }
            }
            default -> {
              if (!IGNORED.contains(f.getKey())) {
                return null; // metaData, protocol or an action not known here
              }
            }
          }
        }
      }
      return c;
    }

    /** Removes, then adds, as a snapshot reconciles one commit; false if it cannot follow. */
    boolean applyTo(Map<String, TargetFile> files, KernelTablePath root) {
      for (JsonNode remove : removes) {
        String path = root.resolve(remove.path("path").asText());
        TargetFile held = files.get(path);
        if (held == null || !sameVector(held, remove.get("deletionVector"))) {
          return false;
        }
        files.remove(path);
      }
      for (JsonNode add : adds) {
        TargetFile file = targetFile(add, root);
        TargetFile held = files.get(file.absolutePath());
        if (held != null && !sameVector(held, add.get("deletionVector"))) {
          return false; // another logical file with the same path: not followed here
        }
        files.put(file.absolutePath(), file);
      }
      return true;
    }

    private static boolean sameVector(TargetFile held, JsonNode vector) {
      DeltaDeletionVector dv = DeltaDeletionVector.fromJson(vector);
      String a = held.deletionVector() == null ? null : held.deletionVector().uniqueId();
      return Objects.equals(a, dv == null ? null : dv.uniqueId());
    }

    private static TargetFile targetFile(JsonNode add, KernelTablePath root) {
      String logPath = add.path("path").asText();
      Map<String, String> partitionValues = new LinkedHashMap<>();
      add.path("partitionValues")
          .fields()
          .forEachRemaining(
              e ->
                  partitionValues.put(
                      e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
      return new TargetFile(
          logPath,
          root.resolve(logPath),
          partitionValues,
          add.path("size").asLong(),
          add.path("modificationTime").asLong(),
          text(add.get("stats")),
          DeltaDeletionVector.fromJson(add.get("deletionVector")),
          number(add.get("baseRowId")),
          number(add.get("defaultRowCommitVersion")));
    }

    private static String text(JsonNode node) {
      return node == null || node.isNull() ? null : node.asText();
    }

    private static Long number(JsonNode node) {
      return node == null || node.isNull() ? null : node.asLong();
    }
  }
}
