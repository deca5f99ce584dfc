package io.lakestream.bench.delta;

import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One of delta-sink's writer loops: the sink's own write path without Flink. One thread per core
 * builds each row as the job does ({@link NarrowRow}, then {@code toRow}) and appends it to a
 * {@link DeltaTableWriter}, flushing at the sink's default file size; nothing is committed
 * (lakestream's Parquet writer with Delta statistics). Its gap to lakestream is the cost of Flink
 * (source, chaining, checkpoints, commits).
 */
final class DeltaWriterLoop {
  private DeltaWriterLoop() {}

  static Measurement run(Path dir, long rows, int threads) throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("table").toString());
    table.ensureExists(NarrowRows.SCHEMA);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      ResourcePeaks peaks = ResourcePeaks.start();
      long start = System.nanoTime();
      List<Future<List<DeltaWrittenFile>>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long from = rows * t / threads;
        long to = rows * (t + 1) / threads;
        parts.add(pool.submit(() -> writeRange(table, from, to)));
      }
      long records = 0;
      long files = 0;
      for (Future<List<DeltaWrittenFile>> part : parts) {
        for (DeltaWrittenFile file : part.get()) {
          records += file.numRecords();
          files++;
        }
      }
      long nanos = System.nanoTime() - start;
      if (records != rows) {
        throw new IllegalStateException("The writer loop wrote " + records + " rows, not " + rows);
      }
      return new Measurement(
          "diagnostic: sink write path without Flink",
          rows,
          nanos,
          peaks.cpuNanos(),
          peaks.peakRssBytes(),
          peaks.peakHeapBytes(),
          String.format(
              Locale.ROOT,
              "%d threads x DeltaTableWriter.append/flush (%,d rows per file), no commit; %d files",
              threads,
              DeltaSinkBuilder.DEFAULT_MAX_ROWS_PER_FILE,
              files));
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<DeltaWrittenFile> writeRange(DeltaTable table, long from, long to)
      throws Exception {
    DeltaTableWriter writer = new DeltaTableWriter(table, NarrowRows.SCHEMA);
    List<DeltaWrittenFile> files = new ArrayList<>();
    for (long i = from; i < to; i++) {
      writer.append(DeltaSinkJob.toRow(NarrowRow.at(i)));
      if (writer.bufferedRows() >= DeltaSinkBuilder.DEFAULT_MAX_ROWS_PER_FILE) {
        files.addAll(writer.flush());
      }
    }
    files.addAll(writer.flush());
    return files;
  }
}
