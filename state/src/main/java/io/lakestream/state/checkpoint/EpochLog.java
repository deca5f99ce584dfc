package io.lakestream.state.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.state.query.ReplayPlan;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * The human-readable side of a checkpoint location: per epoch, the sources' positions ({@code
 * offsets/N/SOURCE}), what each sink committed ({@code commits/N/SINK}) and the progress report
 * ({@code progress/N}), and what observing operators saw ({@code observed/N/FILE}); per run, which
 * sources have caught up ({@code runs/RUN/caught-up/SOURCE}).
 *
 * <p>Source enumerators and sink committers write their part when a checkpoint completes; the query
 * runner reads them to build progress. These files are for people and progress only: correctness
 * never depends on them (positions live in Flink state, commits in the sink), except that a rewind
 * replays committed epochs from the positions recorded here ({@link #replayPlan}).
 */
@Internal
public final class EpochLog implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String root;

  EpochLog(String root) {
    this.root = root;
  }

  private Path path(String child) {
    return new Path(root + "/" + child);
  }

  public void writeOffsets(long epoch, String source, Object offsets) throws IOException {
    JsonFiles.write(path("offsets/" + epoch + "/" + fileName(source)), offsets);
  }

  public void writeCommit(long epoch, String sink, Object commit) throws IOException {
    JsonFiles.write(path("commits/" + epoch + "/" + fileName(sink)), commit);
  }

  /**
   * Writes what one subtask of an observing operator saw in {@code epoch} ({@code
   * observed/N/FILE}); {@code file} is unique per operator, subtask, run and attempt.
   */
  public void writeObserved(long epoch, String file, Object observed) throws IOException {
    JsonFiles.write(path("observed/" + epoch + "/" + fileName(file)), observed);
  }

  /** The observing operators' records of {@code epoch}, by file; empty when none. */
  public Map<String, JsonNode> readObserved(long epoch) throws IOException {
    return readAll("observed/" + epoch);
  }

  public void writeProgress(long epoch, Object progress) throws IOException {
    JsonFiles.write(path("progress/" + epoch), progress);
  }

  /** Positions per source at the end of {@code epoch}; empty when none were recorded. */
  public Map<String, JsonNode> readOffsets(long epoch) throws IOException {
    return readAll("offsets/" + epoch);
  }

  /** Commit records per sink for {@code epoch}. */
  public Map<String, JsonNode> readCommits(long epoch) throws IOException {
    return readAll("commits/" + epoch);
  }

  public Optional<JsonNode> readProgress(long epoch) throws IOException {
    return JsonFiles.read(path("progress/" + epoch), JsonNode.class);
  }

  /** Epochs with at least one commit record, ascending. */
  public List<Long> committedEpochs() throws IOException {
    return numberedChildren("commits");
  }

  /**
   * Epochs with an offsets directory, ascending. The newest may hold no record yet: a record's
   * directory is made before the record is moved into it, and a run stopped in between leaves it
   * empty ({@link #readOffsets} then returns an empty map).
   */
  public List<Long> offsetEpochs() throws IOException {
    return numberedChildren("offsets");
  }

  /** Epochs with a record of an observing operator, ascending. */
  public List<Long> observedEpochs() throws IOException {
    return numberedChildren("observed");
  }

  /** Epochs with a progress report, ascending. */
  public List<Long> progressEpochs() throws IOException {
    return numberedChildren("progress");
  }

  /**
   * The plan for restoring epoch {@code restoredEpoch} when epochs up to {@code lastEpoch} were
   * completed by the abandoned run: the positions recorded in {@code offsets/N} for the epochs in
   * between, and the critical epochs (the last one, and the last each sink committed). {@link
   * ReplayPlan#NONE} when {@code lastEpoch <= restoredEpoch}.
   *
   * @throws ReplayNotPossibleException if a position record needed for an exact replay is missing
   */
  public ReplayPlan replayPlan(long restoredEpoch, long lastEpoch) throws IOException {
    if (lastEpoch <= restoredEpoch) {
      return ReplayPlan.NONE;
    }
    Map<String, TreeMap<Long, Map<String, Long>>> ends = recordedEnds(restoredEpoch, lastEpoch);
    TreeSet<Long> critical = criticalEpochs(restoredEpoch, lastEpoch);
    for (long epoch : critical) {
      requireEnds(ends, epoch, restoredEpoch, lastEpoch);
    }
    return ReplayPlan.of(restoredEpoch, lastEpoch, critical, ends);
  }

  /** Per source, per epoch in {@code (after, upTo]}, the position of each split at its end. */
  private Map<String, TreeMap<Long, Map<String, Long>>> recordedEnds(long after, long upTo)
      throws IOException {
    Map<String, TreeMap<Long, Map<String, Long>>> ends = new HashMap<>();
    for (long epoch : offsetEpochs()) {
      if (epoch <= after || epoch > upTo) {
        continue;
      }
      for (Map.Entry<String, JsonNode> source : readOffsets(epoch).entrySet()) {
        JsonNode offsets = source.getValue().path("offsets");
        String name = source.getValue().path("source").asText(source.getKey());
        Map<String, Long> splits = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = offsets.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> split = it.next();
          splits.put(split.getKey(), split.getValue().asLong());
        }
        ends.computeIfAbsent(name, n -> new TreeMap<>()).put(epoch, splits);
      }
    }
    return ends;
  }

  /** {@code upTo} and the last epoch in {@code (after, upTo]} each sink committed. */
  private TreeSet<Long> criticalEpochs(long after, long upTo) throws IOException {
    TreeSet<Long> critical = new TreeSet<>();
    critical.add(upTo);
    Map<String, Long> lastCommitBySink = new HashMap<>();
    for (long epoch : committedEpochs()) {
      if (epoch > after && epoch <= upTo) {
        for (String sink : readCommits(epoch).keySet()) {
          lastCommitBySink.merge(sink, epoch, Math::max);
        }
      }
    }
    critical.addAll(lastCommitBySink.values());
    return critical;
  }

  private static void requireEnds(
      Map<String, TreeMap<Long, Map<String, Long>>> ends,
      long epoch,
      long restoredEpoch,
      long lastEpoch) {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, TreeMap<Long, Map<String, Long>>> source : ends.entrySet()) {
      if (!source.getValue().containsKey(epoch)) {
        missing.add(source.getKey());
      }
    }
    if (ends.isEmpty() || !missing.isEmpty()) {
      throw new ReplayNotPossibleException(
          "Cannot restore epoch "
              + restoredEpoch
              + " exactly once: epochs "
              + (restoredEpoch + 1)
              + ".."
              + lastEpoch
              + " were already committed by a later run, and the source positions at the end of"
              + " epoch "
              + epoch
              + " are not recorded"
              + (missing.isEmpty() ? "" : " for " + missing)
              + " (offsets/"
              + epoch
              + " in the checkpoint location; only the newest 100 epochs are kept). Restore the"
              + " newest snapshot instead (omit the restore option), or start a new query on a"
              + " new checkpoint location.");
    }
  }

  /** Marks {@code source} as having read everything available when run {@code runId} started. */
  public void markCaughtUp(String runId, String source) throws IOException {
    JsonFiles.write(
        path("runs/" + runId + "/caught-up/" + fileName(source)),
        Map.of("source", source, "at", java.time.Instant.now().toString()));
  }

  /** Sources that have caught up in run {@code runId}. */
  public TreeSet<String> caughtUpSources(String runId) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (FileStatus status : CheckpointLocation.list(path("runs/" + runId + "/caught-up"))) {
      names.add(status.getPath().getName());
    }
    return names;
  }

  /**
   * Deletes offsets, commits, observations and progress of epochs older than the newest {@code
   * retain}.
   */
  public void prune(int retain) throws IOException {
    for (String kind : new String[] {"offsets", "commits", "progress", "observed"}) {
      List<Long> epochs = numberedChildren(kind);
      for (int i = 0; i < epochs.size() - retain; i++) {
        Path p = path(kind + "/" + epochs.get(i));
        p.getFileSystem().delete(p, true);
      }
    }
  }

  /**
   * Records why run {@code runId} ended in failure where no client could see it (the in-job runner
   * gave up stopping an availableNow job); an attached client reports it as the query's failure.
   */
  public void markRunFailed(String runId, String message) throws IOException {
    JsonFiles.write(
        path("runs/" + runId + "/failure"),
        Map.of("message", String.valueOf(message), "at", java.time.Instant.now().toString()));
  }

  /** The failure {@link #markRunFailed} recorded for {@code runId}, if any. */
  public Optional<String> runFailure(String runId) throws IOException {
    return JsonFiles.read(path("runs/" + runId + "/failure"), JsonNode.class)
        .map(node -> node.path("message").asText());
  }

  /** Deletes the per-run signal files of every run but {@code runId} (earlier runs' leftovers). */
  public void deleteRunsExcept(String runId) throws IOException {
    for (FileStatus status : CheckpointLocation.list(path("runs"))) {
      if (!status.getPath().getName().equals(runId)) {
        status.getPath().getFileSystem().delete(status.getPath(), true);
      }
    }
  }

  /** Deletes the per-run signal files of {@code runId}. */
  public void deleteRun(String runId) throws IOException {
    Path p = path("runs/" + runId);
    p.getFileSystem().delete(p, true);
  }

  private Map<String, JsonNode> readAll(String dir) throws IOException {
    Map<String, JsonNode> out = new TreeMap<>();
    for (FileStatus status : CheckpointLocation.list(path(dir))) {
      if (JsonFiles.isHidden(status.getPath())) {
        continue;
      }
      JsonFiles.read(status.getPath(), JsonNode.class)
          .ifPresent(node -> out.put(status.getPath().getName(), node));
    }
    return out;
  }

  private List<Long> numberedChildren(String dir) throws IOException {
    List<Long> epochs = new ArrayList<>();
    for (FileStatus status : CheckpointLocation.list(path(dir))) {
      String name = status.getPath().getName();
      if (name.matches("\\d+")) {
        epochs.add(Long.parseLong(name));
      }
    }
    epochs.sort(null);
    return epochs;
  }

  /** Source and sink names are uids; keep them file-name safe. */
  public static String fileName(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
