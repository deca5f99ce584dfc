package io.lakestream.bench.latency;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaFileRows;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * A Delta reader on its own thread that loads the table's latest snapshot back to back (a short
 * pause between loads) the way lakestream's Delta streaming source does ({@link
 * DeltaTableChanges#latestVersion()}). When a load returns a new version, every row of the new
 * versions' added files became visible at that instant: the poller reads those files only (their
 * {@code id} and {@code sent_us} columns through {@link DeltaDataFileReader}) and records, per
 * measured id, the load's return time - the send time in the row. A row seen twice is counted as a
 * duplicate.
 */
final class VisibilityPoller implements AutoCloseable {
  /** Pause between two snapshot loads: leaves the 2-core machine's CPU to the job. */
  static final long PAUSE_MILLIS = 2;

  private final DeltaTable table;
  private final long firstMeasured;
  private final long[] latencyMicros;
  private final BitSet seen = new BitSet();
  private final Thread thread;
  private volatile boolean closed;
  private volatile Throwable failure;
  private long seenCount;
  private long duplicates;
  private long loads;
  private long loadNanos;
  private long maxLoadNanos;

  /** Starts polling the existing table; ids {@code [firstMeasured, total)} are measured. */
  VisibilityPoller(DeltaTable table, long firstMeasured, long total) {
    this.table = table;
    this.firstMeasured = firstMeasured;
    this.latencyMicros = new long[(int) (total - firstMeasured)];
    this.thread = new Thread(this::run, "delta-visibility-poller");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      String schemaJson = table.latestSnapshot().orElseThrow().getSchema().toJson();
      DeltaTableChanges changes = new DeltaTableChanges(table, schemaJson, false, false);
      DeltaDataFileReader reader = new DeltaDataFileReader(table, schemaJson, List.of());
      long version = changes.latestVersion();
      while (!closed) {
        long start = System.nanoTime();
        long latest = changes.latestVersion();
        long visibleMicros = PacedProducer.nowMicros();
        long took = System.nanoTime() - start;
        synchronized (this) {
          loads++;
          loadNanos += took;
          maxLoadNanos = Math.max(maxLoadNanos, took);
        }
        if (latest > version) {
          for (DeltaAddedFile file : changes.versionFiles(version + 1, latest)) {
            readIds(reader, file, visibleMicros);
          }
          version = latest;
        }
        Thread.sleep(PAUSE_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      failure = t;
    }
  }

  private void readIds(DeltaDataFileReader reader, DeltaAddedFile file, long visibleMicros)
      throws Exception {
    try (DeltaFileRows rows = reader.open(file)) {
      while (rows.hasNext()) {
        Object[] row = rows.next();
        accept(((Long) row[0]).intValue(), (Long) row[1], visibleMicros);
      }
    }
  }

  private synchronized void accept(int id, long sentMicros, long visibleMicros) {
    if (seen.get(id)) {
      duplicates++;
      return;
    }
    seen.set(id);
    seenCount++;
    if (id >= firstMeasured) {
      latencyMicros[(int) (id - firstMeasured)] = visibleMicros - sentMicros;
    }
  }

  /** Distinct ids visible so far; throws what stopped the polling thread. */
  synchronized long seenCount() {
    if (failure != null) {
      throw new IllegalStateException("the Delta poller failed", failure);
    }
    return seenCount;
  }

  synchronized boolean seen(long id) {
    return seen.get((int) id);
  }

  synchronized long duplicates() {
    return duplicates;
  }

  /** The measured ids' latencies; fails if one never became visible. */
  synchronized LatencySample sample() {
    int measured = latencyMicros.length;
    int missing =
        measured - seen.get((int) firstMeasured, (int) firstMeasured + measured).cardinality();
    if (missing > 0) {
      throw new IllegalStateException(missing + " measured records never became visible");
    }
    return new LatencySample(latencyMicros);
  }

  /** How many snapshot loads, their mean and longest time. */
  synchronized String loadSummary() {
    return String.format(
        Locale.ROOT,
        "%,d snapshot loads, mean %.1f ms, max %.1f ms, %d ms pause between loads",
        loads,
        loads == 0 ? 0.0 : loadNanos / 1e6 / loads,
        maxLoadNanos / 1e6,
        PAUSE_MILLIS);
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.join(10_000);
  }
}
