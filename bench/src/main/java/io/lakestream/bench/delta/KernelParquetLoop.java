package io.lakestream.bench.delta;

import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.lakestream.bench.Measurement;
import io.lakestream.bench.ResourcePeaks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;

/**
 * The delta-sink peer, "the local physical limit": one plain loop per thread that fills primitive
 * column arrays and hands them to the very Parquet writer the Delta sink ends in (Kernel's default
 * {@code ParquetHandler.writeParquetFiles}: parquet-mr, the same codec, page and row-group
 * settings, the 128 MB target file size, statistics for every column). No Flink, no Delta log, no
 * commits.
 */
final class KernelParquetLoop {
  /** Rows per in-memory batch handed to the writer (the batch is refilled, not reallocated). */
  static final int BATCH_ROWS = 64 * 1024;

  private KernelParquetLoop() {}

  /**
   * Writes rows {@code [0, rows)} split evenly over {@code threads} threads under {@code dir}.
   *
   * @throws IllegalStateException if the files' record counts do not add up to {@code rows}
   */
  static Measurement run(Path dir, long rows, int threads) throws Exception {
    Engine engine = DefaultEngine.create(new Configuration());
    StructType schema = NarrowRows.SCHEMA.toStructType();
    List<Column> statsColumns = new ArrayList<>();
    for (StructField field : schema.fields()) {
      statsColumns.add(new Column(field.getName()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      ResourcePeaks peaks = ResourcePeaks.start();
      long start = System.nanoTime();
      List<Future<long[]>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long from = rows * t / threads;
        long to = rows * (t + 1) / threads;
        Path target = dir.resolve("thread-" + t);
        parts.add(pool.submit(() -> writeRange(engine, schema, statsColumns, target, from, to)));
      }
      long records = 0;
      long files = 0;
      long bytes = 0;
      for (Future<long[]> part : parts) {
        long[] r = part.get();
        records += r[0];
        files += r[1];
        bytes += r[2];
      }
      long nanos = System.nanoTime() - start;
      long cpuNanos = peaks.cpuNanos();
      if (records != rows) {
        throw new IllegalStateException(
            "Peer wrote " + records + " records according to the file statistics, not " + rows);
      }
      return new Measurement(
          "peer: Kernel Parquet writer loop",
          rows,
          nanos,
          cpuNanos,
          peaks.peakRssBytes(),
          peaks.peakHeapBytes(),
          String.format(
              Locale.ROOT,
              "%d threads x ParquetHandler.writeParquetFiles, %,d-row array batches; %d files,"
                  + " %,d MiB",
              threads,
              BATCH_ROWS,
              files,
              bytes / (1024 * 1024)));
    } finally {
      pool.shutdownNow();
    }
  }

  /** Returns {records (from the statistics), files, bytes}. */
  private static long[] writeRange(
      Engine engine, StructType schema, List<Column> statsColumns, Path dir, long from, long to)
      throws IOException {
    Files.createDirectories(dir);
    ArrayBatch batch = new ArrayBatch(schema, BATCH_ROWS);
    CloseableIterator<FilteredColumnarBatch> batches =
        new CloseableIterator<>() {
          long next = from;

          @Override
          public boolean hasNext() {
            return next < to;
          }

          @Override
          public FilteredColumnarBatch next() {
            if (next >= to) {
              throw new NoSuchElementException();
            }
            long end = Math.min(to, next + BATCH_ROWS);
            batch.fill(next, end);
            next = end;
            return new FilteredColumnarBatch(batch, Optional.empty());
          }

          @Override
          public void close() {}
        };
    long records = 0;
    long files = 0;
    long bytes = 0;
    try (CloseableIterator<DataFileStatus> written =
        engine.getParquetHandler().writeParquetFiles(dir.toString(), batches, statsColumns)) {
      while (written.hasNext()) {
        DataFileStatus file = written.next();
        records += file.getStatistics().map(s -> s.getNumRecords()).orElse(0L);
        files++;
        bytes += file.getSize();
      }
    }
    return new long[] {records, files, bytes};
  }
}
