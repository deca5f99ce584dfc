package io.lakestream.bench.merge;

import io.lakestream.bench.e2.ChildArgs;
import io.lakestream.bench.e2.ChildReport;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lakestream side of {@code bin/bench merge}, run in its own JVM: per epoch, the rows of the
 * epoch's batch (version e+1 of the source table) are read back from their Parquet file and merged
 * by {@link DeltaMergeCommit#commit} (what a foreachBatch sink's committer calls per epoch through
 * {@link DeltaMergeCommit#asEpochFunction()}): {@code DeltaMerge.into(table, "id")
 * .whenMatchedUpdateAll().whenNotMatchedInsertAll()}, statistics pruning, change data files
 * written; copy-on-write or with deletion vectors ({@link DeltaMergeCommit#withDeletionVectors},
 * from the {@link MergeMode} argument). Each epoch is timed alone (wall and process CPU).
 *
 * <p>Arguments {@code key=value}: {@code table}, {@code source}, {@code baseRows}, {@code
 * updateSpan}, {@code batchRows}, {@code epochs}, {@code fileRows}, {@code mode} (a {@link
 * MergeMode} name), {@code parallelism} (threads of the MERGE's per-file work, default 2), {@code
 * report} (the {@link EpochTiming} file). After the clock, the change data feed of every merged
 * version must hold exactly the batch's inserts, pre- and post-images, else the process exits 1.
 */
public final class LakestreamMergeMain {
  private LakestreamMergeMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = ChildArgs.parse(args);
    MergeWorkload w =
        new MergeWorkload(
            Long.parseLong(a.get("baseRows")),
            Long.parseLong(a.get("updateSpan")),
            Integer.parseInt(a.get("batchRows")),
            Integer.parseInt(a.get("epochs")),
            Integer.parseInt(a.get("fileRows")));
    long cpu0 = ChildReport.processCpuNanos();
    long t0 = System.nanoTime();
    MergeMode mode = MergeMode.valueOf(a.get("mode"));
    int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
    List<EpochTiming> epochs = run(w, a.get("table"), a.get("source"), mode, parallelism);
    long nanos = System.nanoTime() - t0;
    long cpu = ChildReport.processCpuNanos() - cpu0;
    long peakRss = ChildReport.peakRssBytes();
    long peakHeap = ChildReport.peakHeapBytes();
    try {
      checkChangeFeed(w, DeltaTable.forPath(a.get("table")), epochs);
    } catch (IllegalStateException e) {
      System.err.println("lakestream side FAILED its check: " + e.getMessage());
      System.exit(1);
    }
    EpochTiming.write(Path.of(a.get("report")), epochs);
    ChildReport.print(
        (long) w.batchRows() * w.epochs(),
        nanos,
        cpu,
        peakRss,
        peakHeap,
        String.format(
            Locale.ROOT,
            "DeltaMergeCommit per epoch (the foreachBatch function), %s, %d epochs; CDF checked",
            mode.label(),
            w.epochs()));
    System.exit(0);
  }

  /** Merges every epoch's batch into {@code table}, copy-on-write; returns the epochs' timings. */
  public static List<EpochTiming> run(MergeWorkload w, String tablePath, String sourcePath)
      throws IOException {
    return run(w, tablePath, sourcePath, MergeMode.COPY_ON_WRITE, 2);
  }

  /** {@link #run(MergeWorkload, String, String, MergeMode, int)} on 2 threads. */
  public static List<EpochTiming> run(
      MergeWorkload w, String tablePath, String sourcePath, MergeMode mode) throws IOException {
    return run(w, tablePath, sourcePath, mode, 2);
  }

  /**
   * Merges every epoch's batch into {@code table} as {@code mode} says (deletion vectors need a
   * table that enables them), rewriting files on up to {@code parallelism} threads (the query's
   * parallelism, as a foreachBatch sink passes it); returns the epochs' timings.
   */
  public static List<EpochTiming> run(
      MergeWorkload w, String tablePath, String sourcePath, MergeMode mode, int parallelism)
      throws IOException {
    DeltaTable table = DeltaTable.forPath(tablePath);
    DeltaMergeCommit commit =
        new DeltaMergeCommit(
                DeltaMerge.into(table, MergeWorkload.schema(mode), "id")
                    .whenMatchedUpdateAll()
                    .whenNotMatchedInsertAll()
                    .build(),
                "merge-bench")
            .withDeletionVectors(mode.deletionVectors())
            .withParallelism(parallelism);
    DeltaTable source = DeltaTable.forPath(sourcePath);
    String schemaJson = source.latestSnapshot().orElseThrow().getSchema().toJson();
    DeltaTableChanges versions = new DeltaTableChanges(source, schemaJson, false, false);
    DeltaDataFileReader reader = new DeltaDataFileReader(source, schemaJson, List.of());
    List<EpochTiming> out = new ArrayList<>();
    for (int e = 0; e < w.epochs(); e++) {
      long cpu0 = ChildReport.processCpuNanos();
      long t0 = System.nanoTime();
      List<Object[]> rows = new ArrayList<>(w.batchRows());
      for (DeltaAddedFile file : versions.versionFiles(e + 1, e + 1)) {
        try (DeltaDataFileReader.Rows it = reader.open(file)) {
          while (it.hasNext()) {
            rows.add(it.next());
          }
        }
      }
      DeltaMergeResult r = commit.commit(e, rows);
      long nanos = System.nanoTime() - t0;
      long cpu = ChildReport.processCpuNanos() - cpu0;
      if (r.status() != DeltaMergeResult.Status.COMMITTED || rows.size() != w.batchRows()) {
        throw new IllegalStateException(
            "epoch " + e + " read " + rows.size() + " rows and ended " + r.status());
      }
      out.add(
          new EpochTiming(
              e,
              nanos,
              cpu,
              r.filesInTable(),
              r.candidateFiles(),
              r.filesRemoved(),
              r.filesAdded(),
              r.changeFilesAdded(),
              r.rowsUpdated(),
              r.rowsInserted(),
              r.rowsCopied()));
      System.err.printf(Locale.ROOT, "lakestream merge: %s version=%d%n", out.get(e), r.version());
    }
    return out;
  }

  /**
   * Checks that the last {@code epochs.size()} versions' change data feed holds, per version, the
   * batch's inserts and as many pre- as post-images as it had updates.
   *
   * @throws IllegalStateException naming the version and counts that differ
   */
  public static void checkChangeFeed(MergeWorkload w, DeltaTable table, List<EpochTiming> epochs)
      throws IOException {
    long last = table.latestSnapshot().orElseThrow().getVersion();
    long first = last - epochs.size() + 1;
    DeltaChangeDataFeed feed = new DeltaChangeDataFeed(table);
    int typeIndex = feed.columnNames(last).indexOf(DeltaChangeFileReader.CHANGE_TYPE);
    for (int e = 0; e < epochs.size(); e++) {
      long version = first + e;
      long inserts = 0;
      long pre = 0;
      long post = 0;
      long other = 0;
      for (Object[] row : feed.read(version, version)) {
        switch (String.valueOf(row[typeIndex])) {
          case "insert" -> inserts++;
          case "update_preimage" -> pre++;
          case "update_postimage" -> post++;
          default -> other++;
        }
      }
      long[] expected = w.updatesAndInserts(e);
      if (inserts != expected[1] || pre != expected[0] || post != expected[0] || other != 0) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "change data feed of version %d (epoch %d): %d inserts, %d pre-images, %d"
                    + " post-images, %d others; expected %d inserts, %d pre- and post-images",
                version,
                e,
                inserts,
                pre,
                post,
                other,
                expected[1],
                expected[0]));
      }
    }
  }
}
