package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.state.checkpoint.EpochLog;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The client's view of a run's progress: the {@code progress/N} reports the in-job {@link
 * QueryRunner} writes, read back in epoch order (only this run's, only epochs after the one the run
 * started from), for {@link StreamingQuery#lastProgress()} and the listeners. Tells when the run
 * has had no data for {@code idleAfter}, once per idle stretch.
 *
 * <p>Not thread-safe: driven by one scheduler thread (reads are synchronized).
 */
final class ProgressFeed {
  private static final int RECENT = 100;

  /** What a poll found. */
  record Update(List<QueryProgress> reports, boolean becameIdle) {}

  private final EpochLog log;
  private final String runId;
  private final Duration idleAfter;
  private final Deque<QueryProgress> recent = new ArrayDeque<>();
  private long lastEpoch;
  private Instant lastDataAt = Instant.now();
  private boolean idleReported;
  private boolean lastHadData;

  /**
   * @param after the epoch the run starts after: reports up to it belong to earlier runs
   */
  ProgressFeed(EpochLog log, String runId, long after, Duration idleAfter) throws IOException {
    this.log = log;
    this.runId = runId;
    this.idleAfter = idleAfter;
    List<Long> reported = log.progressEpochs();
    this.lastEpoch = Math.max(after, reported.isEmpty() ? 0 : reported.get(reported.size() - 1));
  }

  /** Reads the reports written since the last poll. */
  synchronized Update poll() throws IOException {
    List<QueryProgress> found = new ArrayList<>();
    for (long epoch : log.progressEpochs()) {
      if (epoch <= lastEpoch) {
        continue;
      }
      Optional<JsonNode> report = log.readProgress(epoch);
      if (report.isEmpty()) {
        break; // being written: read it at the next poll
      }
      lastEpoch = epoch;
      if (!runId.equals(report.get().path("runId").asText())) {
        continue;
      }
      QueryProgress progress = new QueryProgress(report.get());
      lastHadData = progress.numInputRows() > 0 || progress.numOutputRows() > 0;
      if (lastHadData) {
        lastDataAt = Instant.now();
        idleReported = false;
      }
      recent.addLast(progress);
      while (recent.size() > RECENT) {
        recent.removeFirst();
      }
      found.add(progress);
    }
    boolean becameIdle =
        !idleReported && Duration.between(lastDataAt, Instant.now()).compareTo(idleAfter) > 0;
    idleReported |= becameIdle;
    return new Update(found, becameIdle);
  }

  synchronized Optional<QueryProgress> last() {
    return Optional.ofNullable(recent.peekLast());
  }

  synchronized List<QueryProgress> recent() {
    return new ArrayList<>(recent);
  }

  synchronized boolean lastHadData() {
    return lastHadData;
  }
}
