package io.lakestream.connectors.delta.sink;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochFunction;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit step of a foreachBatch sink: reads the epoch's staged rows (Parquet files the writers
 * wrote, uncommitted, into a staging Delta table) and calls the {@link EpochFunction} with them.
 * Rows come file by file in a fixed order (files sorted by path), so a replayed epoch sees the same
 * list. An exception of the function propagates (the query fails and the epoch is retried whole
 * after restore). An epoch without rows does not call the function ({@code EMPTY}).
 *
 * <p>Staged files of an epoch are deleted when the next epoch is committed; files of the last epoch
 * before a failure stay in the staging directory. A restored snapshot may still name an epoch whose
 * files are gone: when one notification commits two epochs (a snapshot taken before the earlier
 * one's commit, as a stop-with-savepoint right after a checkpoint does), the second commit deletes
 * the first one's files although that snapshot lists it. Only this class deletes staged files, and
 * only after the function returned for their epoch, so an epoch with a missing staged file was
 * fully processed: it is reported {@code ALREADY_COMMITTED} without calling the function.
 */
final class ForeachBatchCommit implements EpochCommitAction<DeltaWrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ForeachBatchCommit.class);

  private final DeltaTable staging;
  private final DeltaTableSchema schema;
  private final EpochFunction function;
  private transient List<DeltaWrittenFile> previous;

  ForeachBatchCommit(DeltaTable staging, DeltaTableSchema schema, EpochFunction function) {
    this.staging = staging;
    this.schema = schema;
    this.function = function;
  }

  @Override
  public void open() {
    staging.ensureExists(schema);
  }

  /** Also hands the sink's parallelism to the function ({@link EpochFunction#open(int)}). */
  @Override
  public void open(int parallelism) throws IOException {
    open();
    try {
      function.open(parallelism);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("The epoch function failed to open: " + e.getMessage(), e);
    }
  }

  @Override
  public EpochCommitOutcome commit(long epoch, List<DeltaWrittenFile> files) throws IOException {
    if (files.isEmpty()) {
      return EpochCommitOutcome.empty(epoch);
    }
    List<DeltaWrittenFile> ordered = new ArrayList<>(files);
    ordered.sort(Comparator.comparing(DeltaWrittenFile::path));
    for (DeltaWrittenFile file : ordered) {
      if (!exists(file)) {
        LOG.info(
            "{}: staged file {} of epoch {} was deleted after the epoch function had run for it;"
                + " the epoch is already processed, skipping",
            staging.path(),
            file.path(),
            epoch);
        return new EpochCommitOutcome(
            epoch, EpochCommitOutcome.Status.ALREADY_COMMITTED, 0, files.size(), 0, "");
      }
    }
    DeltaDataFileReader reader =
        new DeltaDataFileReader(staging, schema.toStructType().toJson(), schema.partitionColumns());
    List<Object[]> rows = new ArrayList<>();
    long bytes = 0;
    for (DeltaWrittenFile file : ordered) {
      bytes += file.size();
      try (DeltaDataFileReader.Rows fileRows =
          reader.open(
              new DeltaAddedFile(
                  file.path(), epoch, 0, false, file.partitionValues(), file.size(), -1))) {
        while (fileRows.hasNext()) {
          rows.add(fileRows.next());
        }
      }
    }
    try {
      function.call(epoch, rows);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(
          "The epoch function failed for epoch " + epoch + ": " + e.getMessage(), e);
    }
    deleteStaged(previous);
    previous = ordered;
    return new EpochCommitOutcome(
        epoch, EpochCommitOutcome.Status.COMMITTED, rows.size(), files.size(), bytes, "");
  }

  private boolean exists(DeltaWrittenFile file) throws IOException {
    URI uri = URI.create(file.path());
    if ("file".equals(uri.getScheme())) {
      return Files.exists(Path.of(uri));
    }
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
    return p.getFileSystem(staging.hadoopConfiguration()).exists(p);
  }

  private void deleteStaged(List<DeltaWrittenFile> files) {
    if (files == null) {
      return;
    }
    for (DeltaWrittenFile file : files) {
      try {
        URI uri = URI.create(file.path());
        if ("file".equals(uri.getScheme())) {
          Files.deleteIfExists(Path.of(uri));
        } else {
          org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
          p.getFileSystem(staging.hadoopConfiguration()).delete(p, false);
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot delete staged file {} (left for cleanup): {}", file.path(), e.toString());
      }
    }
  }

  @Override
  public String toString() {
    return "ForeachBatchCommit[" + staging.path() + ", " + function + "]";
  }
}
