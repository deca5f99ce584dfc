package io.lakestream.bench.merge;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes the tables of {@code bin/bench merge} (not timed): the initial silver table, one commit of
 * files each holding {@code fileRows} consecutive keys in order (so every file's min/max statistics
 * cover a disjoint key range, as after Z-ordering or liquid clustering by key), and the source
 * table, whose version {@code e+1} holds exactly epoch {@code e}'s batch in one file (both sides
 * read one version per epoch). Also copies a table directory so each side starts from identical
 * files.
 */
public final class MergeTables {
  private MergeTables() {}

  /** Writes the initial copy-on-write table at {@code dir}. */
  public static void writeBase(MergeWorkload w, Path dir) throws IOException {
    writeBase(w, dir, MergeMode.COPY_ON_WRITE);
  }

  /**
   * Writes the initial table at {@code dir} with the properties of {@code mode} ({@link
   * MergeWorkload#schema(MergeMode)}); fails if it does not commit.
   */
  public static void writeBase(MergeWorkload w, Path dir, MergeMode mode) throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.toString());
    DeltaTableSchema schema = MergeWorkload.schema(mode);
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "merge-bench-base");
    commit.open();
    List<DeltaWrittenFile> files = new ArrayList<>();
    List<Object[]> chunk = new ArrayList<>(w.fileRows());
    for (long key = 0; key < w.baseRows(); key++) {
      chunk.add(MergeWorkload.baseRow(key));
      if (chunk.size() == w.fileRows() || key == w.baseRows() - 1) {
        files.addAll(writer.write(chunk));
        chunk.clear();
      }
    }
    check(commit.commit(0, files), dir);
  }

  /** Writes the source table at {@code dir}: version e+1 is epoch e's batch, one file. */
  public static void writeBatches(MergeWorkload w, Path dir) throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.toString());
    DeltaTableSchema schema = MergeWorkload.schema();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "merge-bench-batches");
    commit.open();
    for (int e = 0; e < w.epochs(); e++) {
      List<DeltaWrittenFile> files = writer.write(w.batch(e));
      if (files.size() != 1) {
        throw new IllegalStateException(
            "batch " + e + " was written as " + files.size() + " files");
      }
      check(commit.commit(e, files), dir);
    }
  }

  private static void check(EpochCommitOutcome outcome, Path dir) {
    if (outcome.status() != EpochCommitOutcome.Status.COMMITTED) {
      throw new IllegalStateException("writing " + dir + " did not commit: " + outcome);
    }
  }

  /** Copies the table directory {@code from} to {@code to} (which must not exist). */
  public static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
