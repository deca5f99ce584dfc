package io.lakestream.connectors.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateErrorClass;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enumerator-side bookkeeping shared by lakestream sources: records each epoch's positions in the
 * checkpoint location ({@code offsets/N/SOURCE}) when the checkpoint completes, and, in an
 * availableNow run, signals the runner once every split has caught up.
 *
 * <p>Only for people and the runner: failures to write are logged, never fail the query, since
 * positions themselves live in Flink state.
 */
@Internal
public final class EpochPositions {
  private static final Logger LOG = LoggerFactory.getLogger(EpochPositions.class);

  private final QueryContext query;
  private final String sourceName;
  private final Map<String, Long> lastKnown = new TreeMap<>();
  private final TreeMap<Long, Map<String, Long>> reports = new TreeMap<>();
  private final TreeMap<Long, LatestLookup> latestLookups = new TreeMap<>();
  private final Set<String> caughtUp = new HashSet<>();
  private boolean caughtUpSignalled;
  private final ToLongFunction<Map<String, Long>> total;

  /**
   * @param query the query, or null when the source runs outside a lakestream query
   * @param sourceName the source's name (its uid)
   */
  public EpochPositions(QueryContext query, String sourceName) {
    this(
        query,
        sourceName,
        positions -> positions.values().stream().mapToLong(Long::longValue).sum());
  }

  /**
   * @param total the record's {@code totalOffset} (rows read so far, from which progress derives
   *     each epoch's input rows) for the known positions; by default their sum, which fits sources
   *     whose positions are row offsets
   */
  public EpochPositions(
      QueryContext query, String sourceName, ToLongFunction<Map<String, Long>> total) {
    this.query = query;
    this.sourceName = sourceName;
    this.total = total;
  }

  /** Positions known without any reader (restored or unassigned splits). */
  public void seed(Map<String, Long> positions) {
    lastKnown.putAll(positions);
  }

  public void onReport(PositionReport report) {
    reports
        .computeIfAbsent(report.checkpointId(), id -> new TreeMap<>())
        .putAll(report.positions());
  }

  /**
   * Notes the latest positions the source found available, which bound epoch {@code epoch}, and how
   * long the look-up took: the epoch's record shows them as {@code latestOffsets} and {@code
   * latestOffsetMs} (progress's {@code sources[].latestOffset} and {@code
   * durationMs.latestOffset}).
   */
  public void onLatestLookedUp(long epoch, Map<String, Long> latest, long lookupMillis) {
    latestLookups.put(epoch, new LatestLookup(new TreeMap<>(latest), lookupMillis));
  }

  /**
   * Writes the positions of epoch {@code checkpointId}.
   *
   * @param endPositions each split's end for this run (may be empty when unbounded)
   */
  public void onCheckpointComplete(long checkpointId, Map<String, Long> endPositions) {
    onCheckpointComplete(checkpointId, endPositions, Map.of());
  }

  /**
   * Writes the positions of epoch {@code checkpointId} with source metrics (for example Kafka's
   * {@code avgOffsetsBehindLatest}); the progress report shows them as the source's {@code
   * metrics}, as Spark does.
   *
   * @param endPositions each split's end for this run (may be empty when unbounded)
   * @param metrics metric name to value (numbers or strings); may be empty
   */
  public void onCheckpointComplete(
      long checkpointId, Map<String, Long> endPositions, Map<String, ?> metrics) {
    // Flink notifies only the newest completed checkpoint; earlier epochs it subsumed were
    // committed by the sinks too, so each gets its own offsets record.
    Map<Long, Map<String, Long>> done = reports.headMap(checkpointId, true);
    if (done.isEmpty()) {
      write(checkpointId, endPositions, metrics);
    }
    for (Map.Entry<Long, Map<String, Long>> report : done.entrySet()) {
      lastKnown.putAll(report.getValue());
      write(report.getKey(), endPositions, metrics);
    }
    done.clear();
    latestLookups.headMap(checkpointId, true).clear();
  }

  private void write(long epoch, Map<String, Long> endPositions, Map<String, ?> metrics) {
    if (query == null) {
      return;
    }
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("source", sourceName);
    record.put("epoch", epoch);
    record.put("recordedAt", Instant.now().toString());
    record.put("offsets", new TreeMap<>(lastKnown));
    record.put("totalOffset", total.applyAsLong(lastKnown));
    if (!endPositions.isEmpty()) {
      record.put("endOffsets", new TreeMap<>(endPositions));
    }
    LatestLookup lookup = latestLookups.get(epoch);
    if (lookup != null) {
      record.put("latestOffsets", lookup.latest());
      record.put("latestOffsetMs", lookup.millis());
    }
    if (!metrics.isEmpty()) {
      record.put("metrics", new TreeMap<>(metrics));
    }
    try {
      location().epochs().writeOffsets(epoch, sourceName, record);
    } catch (IOException e) {
      LOG.warn("Could not record offsets of epoch {} for {}", epoch, sourceName, e);
    }
  }

  /** Notes a caught-up split; signals the runner when all {@code totalSplits} have caught up. */
  public void onCaughtUp(String splitId, int totalSplits) {
    caughtUp.add(splitId);
    signalIfAllCaughtUp(totalSplits);
  }

  /** Signals the runner if all {@code totalSplits} splits have caught up (0 splits: at once). */
  public void signalIfAllCaughtUp(int totalSplits) {
    if (query == null || !query.availableNow() || caughtUpSignalled) {
      return;
    }
    if (caughtUp.size() >= totalSplits) {
      caughtUpSignalled = true;
      try {
        location().epochs().markCaughtUp(query.runId(), sourceName);
        LOG.info("Source {} read everything available at the start of this run", sourceName);
      } catch (IOException e) {
        throw new LakestreamException(
            StateErrorClass.CHECKPOINT_LOCATION_UNAVAILABLE,
            "Could not tell the runner that source "
                + sourceName
                + " caught up: the checkpoint location "
                + query.checkpointLocation()
                + " is not writable",
            e);
      }
    }
  }

  private record LatestLookup(Map<String, Long> latest, long millis) {}

  private CheckpointLocation location() {
    return new CheckpointLocation(URI.create(query.checkpointLocation()));
  }
}
