package io.lakestream.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.runtime.StateOperatorMetrics.OperatorState;
import io.lakestream.runtime.StateOperatorMetrics.Snapshot;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code stateOperators} part of each epoch's progress, in Structured Streaming's shape: per
 * stateful operator {@code operatorName} (its uid), {@code numRowsTotal} and {@code
 * memoryUsedBytes} (current), {@code numRowsUpdated} and {@code numRowsDroppedByWatermark} (since
 * the previous report: the difference of the operators' counters; a counter that went down, as
 * after a task restart, counts from zero), and on the RocksDB backend {@code customMetrics}
 * (RocksDB's estimated keys, SST file and memtable bytes, running flushes and compactions, summed
 * over the operator's states and subtasks, as of the latest read and Flink's 5 s refresh of them
 * rather than the epoch's end).
 *
 * <p>Values come from the latest successful {@link StateOperatorMetrics} read, taken at most every
 * {@link #MIN_READ_INTERVAL} while the job runs (and when an epoch is reported), so an epoch shows
 * the state as of its report, not exactly as of its checkpoint. When the metrics cannot be read (no
 * REST address, the job has ended) the last values are kept and the per-epoch counts are 0; a
 * failure to read is logged once, never fatal.
 *
 * <p>Thread-safe.
 */
final class StateOperatorProgress {
  private static final Logger LOG = LoggerFactory.getLogger(StateOperatorProgress.class);

  static final Duration MIN_READ_INTERVAL = Duration.ofSeconds(1);

  /** Where the values come from: {@link StateOperatorMetrics} for a running job. */
  interface Reader {
    Snapshot read() throws IOException, InterruptedException;
  }

  /** Reports no state operators (no metrics reader). */
  static StateOperatorProgress none() {
    return new StateOperatorProgress(null, MIN_READ_INTERVAL);
  }

  private final Reader metrics;
  private final Duration minReadInterval;
  private static final int HISTORY = 500;

  private final Map<String, long[]> reported = new HashMap<>();
  private final Map<String, OperatorState> used = new HashMap<>();
  private final Map<String, TreeMap<Long, OperatorState>> history = new HashMap<>();
  private Snapshot last = Snapshot.EMPTY;
  private Instant lastRead = Instant.EPOCH;
  private boolean ended;
  private boolean failureLogged;

  StateOperatorProgress(Reader metrics, Duration minReadInterval) {
    this.metrics = metrics;
    this.minReadInterval = minReadInterval;
  }

  /** Reads the metrics unless the job ended or they were read less than a second ago. */
  synchronized void refresh() {
    Instant now = Instant.now();
    if (metrics == null
        || ended
        || Duration.between(lastRead, now).compareTo(minReadInterval) < 0) {
      return;
    }
    lastRead = now;
    try {
      last = metrics.read();
      last.epochs()
          .forEach(
              (uid, e) -> {
                TreeMap<Long, OperatorState> h = history.computeIfAbsent(uid, u -> new TreeMap<>());
                h.put(e.epoch(), e.values());
                while (h.size() > HISTORY) {
                  h.pollFirstEntry();
                }
              });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      if (!failureLogged) {
        failureLogged = true;
        LOG.warn(
            "Could not read the state operators' metrics from the Flink REST API ({}); progress"
                + " keeps their last values",
            e.toString());
      }
    }
  }

  /** No more reads: the job has ended. */
  synchronized void jobEnded() {
    ended = true;
  }

  /**
   * The entries for the report of {@code epoch}. Each operator's values are those at the end of
   * that epoch, or of the latest earlier epoch seen; if none was seen yet, the previous report's
   * values (nothing new: the rows count in a later epoch) while the job runs, or the last read
   * values once it has ended. Per-epoch counts are taken since the previous report.
   */
  synchronized ArrayNode report(ObjectMapper mapper, long epoch) {
    ArrayNode operators = mapper.createArrayNode();
    for (OperatorState current : last.operators().values()) {
      String uid = current.uid();
      Map.Entry<Long, OperatorState> atEpoch =
          history.getOrDefault(uid, new TreeMap<>()).floorEntry(epoch);
      OperatorState s;
      if (atEpoch != null) {
        s = atEpoch.getValue();
      } else if (ended) {
        s = current;
      } else {
        s = used.getOrDefault(uid, new OperatorState(uid, 0, 0, 0, 0));
      }
      used.put(uid, s);
      long[] previous = reported.getOrDefault(uid, new long[2]);
      ObjectNode o = operators.addObject();
      o.put("operatorName", uid);
      o.put("numRowsTotal", s.numRowsTotal());
      o.put("numRowsUpdated", since(previous[0], s.numRowsUpdated()));
      o.put("memoryUsedBytes", s.memoryUsedBytes());
      o.put("numRowsDroppedByWatermark", since(previous[1], s.numRowsDroppedByWatermark()));
      Map<String, Long> custom = last.customMetrics().get(uid);
      if (custom != null) {
        custom.forEach(o.putObject("customMetrics")::put);
      }
      reported.put(uid, new long[] {s.numRowsUpdated(), s.numRowsDroppedByWatermark()});
    }
    return operators;
  }

  /** The lowest input watermark of the stateful operators' tasks, if any has one. */
  synchronized OptionalLong watermark() {
    return last.watermark();
  }

  private static long since(long previous, long now) {
    return now >= previous ? now - previous : now;
  }
}
