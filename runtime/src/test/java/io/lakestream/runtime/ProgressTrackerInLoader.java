package io.lakestream.runtime;

import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link ProgressTracker} on a local checkpoint location, driven by reflection from {@link
 * ProgressTrackerTest} inside a class loader of its own, which the test closes between calls (as
 * Flink closes a finished job's class loader while the runner's {@code close()} still reports).
 */
public final class ProgressTrackerInLoader {
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  private final EpochLog log;
  private final ProgressTracker tracker;
  private final EpochClock clock = new EpochClock(T0);

  public ProgressTrackerInLoader(Path location) throws Exception {
    log = new CheckpointLocation(location.toUri()).epochs();
    tracker =
        new ProgressTracker(
            log,
            "query-id",
            "run-id",
            "orders",
            0,
            1,
            1,
            Duration.ofHours(1),
            StateOperatorProgress::none,
            clock,
            ProgressTracker.Sink.NONE);
  }

  /** Writes the offsets and the commit record of {@code epoch}. */
  public void records(long epoch) throws Exception {
    clock.triggered(epoch, T0.plusSeconds(epoch).minusMillis(500));
    clock.completed(epoch, T0.plusSeconds(epoch).minusMillis(400));
    commit(epoch);
    offsets(epoch);
  }

  /** Writes the sink's commit record of {@code epoch} (100 rows). */
  public void commit(long epoch) throws Exception {
    Map<String, Object> commit = new LinkedHashMap<>();
    commit.put("sink", "counts");
    commit.put("description", "json-lines /t");
    commit.put("numOutputRows", 100);
    commit.put("watermark", "2026-01-01T00:00:0" + epoch + "Z");
    commit.put("committedAt", T0.plusSeconds(epoch).toString());
    commit.put("commitDurationMs", 10);
    log.writeCommit(epoch, "counts", commit);
  }

  /** Writes the source's offsets of {@code epoch} ({@code epoch * 100} rows in all). */
  public void offsets(long epoch) throws Exception {
    Map<String, Object> offsets = new LinkedHashMap<>();
    offsets.put("source", "numbers");
    offsets.put("offsets", Map.of("partition-0", epoch * 100));
    offsets.put("totalOffset", epoch * 100);
    offsets.put("endOffsets", Map.of("partition-0", 1000));
    log.writeOffsets(epoch, "numbers", offsets);
  }

  /** Reports every epoch whose records are complete. */
  public void poll() throws Exception {
    tracker.poll(false);
  }
}
