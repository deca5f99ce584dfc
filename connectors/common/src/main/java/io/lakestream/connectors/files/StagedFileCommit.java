package io.lakestream.connectors.files;

import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Commits an epoch of a JSON-lines table: moves the staged files into the table directory, then
 * writes the marker {@code _commits/<epoch>}. A replayed epoch whose marker exists is skipped; a
 * replay of a half-done commit finishes it (files already moved are recognised and left alone).
 */
final class StagedFileCommit implements EpochCommitAction<StagedFile> {
  private static final long serialVersionUID = 1L;

  private final String tableDir;

  StagedFileCommit(String tableDir) {
    this.tableDir = tableDir;
  }

  @Override
  public EpochCommitOutcome commit(long epoch, List<StagedFile> files) throws IOException {
    if (files.isEmpty()) {
      return EpochCommitOutcome.empty(epoch);
    }
    Path marker = new Path(new Path(tableDir, JsonLinesFileSink.COMMITS_DIR), Long.toString(epoch));
    FileSystem fs = marker.getFileSystem();
    long rows = 0;
    long bytes = 0;
    for (StagedFile file : files) {
      rows += file.numRows();
      bytes += file.numBytes();
    }
    if (fs.exists(marker)) {
      return new EpochCommitOutcome(
          epoch, EpochCommitOutcome.Status.ALREADY_COMMITTED, rows, files.size(), bytes, "");
    }
    for (StagedFile file : files) {
      Path staged = new Path(file.stagingPath());
      Path target = new Path(file.finalPath());
      if (fs.exists(staged)) {
        if (!fs.rename(staged, target)) {
          throw new IOException(
              "Could not move staged file "
                  + staged
                  + " to "
                  + target
                  + ": check that the table directory is writable and not on a file system"
                  + " without rename");
        }
      } else if (!fs.exists(target)) {
        throw new IOException(
            "Epoch "
                + epoch
                + " lost its staged file "
                + staged
                + " before commit: something deleted files under "
                + JsonLinesFileSink.STAGING_DIR
                + " while the query was running. Restore from an older checkpoint or start a new"
                + " query with a new checkpoint location.");
      }
    }
    try (OutputStream out = fs.create(marker, FileSystem.WriteMode.OVERWRITE)) {
      out.write(
          ("{\"epoch\":" + epoch + ",\"files\":" + files.size() + ",\"rows\":" + rows + "}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    return new EpochCommitOutcome(
        epoch, EpochCommitOutcome.Status.COMMITTED, rows, files.size(), bytes, "");
  }
}
