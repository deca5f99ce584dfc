package io.lakestream.connectors.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits an epoch of a JSON-lines table: moves the staged files into the table directory, then
 * writes the marker {@code _commits/<epoch>} naming the query's app id. A replayed epoch whose
 * marker exists is skipped; a replay of a half-done commit finishes it (files already moved are
 * recognised and left alone, also a move that an object store's copy-then-delete rename finished
 * only half: the leftover staged file is removed).
 *
 * <p>A marker written under another app id belongs to another query on the same directory (for
 * example the one before the checkpoint location was deleted or moved: epoch ids restart at 1 in a
 * new location): it does not make this query's epoch committed, so the epoch is committed and the
 * marker rewritten. Markers without an app id (written before markers named it, or by a sink built
 * without one) count for every query, as they always did.
 */
final class StagedFileCommit implements EpochCommitAction<StagedFile> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(StagedFileCommit.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String tableDir;
  private final String appId;

  /** A commit whose markers name no app id: any marker of an epoch skips it. */
  StagedFileCommit(String tableDir) {
    this(tableDir, null);
  }

  /**
   * @param appId the writing query's app id (new for a new checkpoint location), or null
   */
  StagedFileCommit(String tableDir, String appId) {
    this.tableDir = tableDir;
    this.appId = appId;
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
    if (fs.exists(marker) && markedByThisQuery(fs, marker, epoch)) {
      return new EpochCommitOutcome(
          epoch, EpochCommitOutcome.Status.ALREADY_COMMITTED, rows, files.size(), bytes, "");
    }
    for (StagedFile file : files) {
      Path staged = new Path(file.stagingPath());
      Path target = new Path(file.finalPath());
      if (fs.exists(staged) && fs.exists(target)) {
        dropCopiedStagedFile(fs, file, staged, target);
      } else if (fs.exists(staged)) {
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
    String owner = appId == null ? "" : ",\"appId\":" + MAPPER.writeValueAsString(appId);
    try (OutputStream out = fs.create(marker, FileSystem.WriteMode.OVERWRITE)) {
      out.write(
          ("{\"epoch\":"
                  + epoch
                  + ",\"files\":"
                  + files.size()
                  + ",\"rows\":"
                  + rows
                  + owner
                  + "}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    return new EpochCommitOutcome(
        epoch, EpochCommitOutcome.Status.COMMITTED, rows, files.size(), bytes, "");
  }

  /**
   * The staged file is also in the table: on an object store (S3) a rename is a copy, then a delete
   * of the source, and a process killed between the two leaves both. An object is visible only once
   * complete, so the copy is whole if it has the staged file's size; then the staged file is a
   * leftover and goes. Anything else at the target is not this file's: refuse to touch it.
   */
  private static void dropCopiedStagedFile(FileSystem fs, StagedFile file, Path staged, Path target)
      throws IOException {
    long copied = fs.getFileStatus(target).getLen();
    if (copied != file.numBytes()) {
      throw new IOException(
          "Cannot commit staged file "
              + staged
              + ": "
              + target
              + " exists with "
              + copied
              + " bytes, the staged file has "
              + file.numBytes()
              + "; something else wrote that file name in the table directory");
    }
    LOG.info("{} was copied to {} before its rename was cut off; deleting it", staged, target);
    fs.delete(staged, false);
  }

  /** Whether the existing marker of {@code epoch} was written by this query (see the class). */
  private boolean markedByThisQuery(FileSystem fs, Path marker, long epoch) throws IOException {
    if (appId == null) {
      return true;
    }
    JsonNode written;
    try (InputStream in = fs.open(marker)) {
      written = MAPPER.readTree(in);
    }
    JsonNode owner = written == null ? null : written.get("appId");
    if (owner == null || owner.asText().equals(appId)) {
      return true;
    }
    LOG.info(
        "{}: epoch {} is marked committed by app {}, another query on this directory (an earlier"
            + " checkpoint location?); committing epoch {} of app {}",
        tableDir,
        epoch,
        owner.asText(),
        epoch,
        appId);
    return false;
  }
}
