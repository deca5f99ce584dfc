package io.lakestream.connectors.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Writes rows as JSON lines into a staging file per epoch; at each checkpoint the file is closed
 * and handed to the commit. Nothing it writes is visible to readers until the epoch commits.
 *
 * <p>Files left in staging by a failed attempt are never committed (the commit only moves files
 * named in a completed checkpoint); they are garbage a later cleanup may delete.
 */
final class JsonLinesWriter<T> implements CommittingSinkWriter<T, StagedFile> {
  private final RowEncoder<T> encoder;
  private final Path tableDir;
  private final Path stagingDir;
  private final int subtask;
  private final List<StagedFile> finished = new ArrayList<>();

  private OutputStream current;
  private Path currentStagingPath;
  private String currentName;
  private long currentRows;
  private long currentBytes;

  JsonLinesWriter(RowEncoder<T> encoder, Path tableDir, int subtask) {
    this.encoder = encoder;
    this.tableDir = tableDir;
    this.stagingDir = new Path(tableDir, JsonLinesFileSink.STAGING_DIR);
    this.subtask = subtask;
  }

  @Override
  public void write(T row, Context context) throws IOException {
    if (current == null) {
      currentName = String.format("part-%05d-%s.jsonl", subtask, UUID.randomUUID());
      currentStagingPath = new Path(stagingDir, currentName);
      current =
          currentStagingPath
              .getFileSystem()
              .create(currentStagingPath, FileSystem.WriteMode.NO_OVERWRITE);
      currentRows = 0;
      currentBytes = 0;
    }
    byte[] line = (encoder.encode(row) + "\n").getBytes(StandardCharsets.UTF_8);
    current.write(line);
    currentRows++;
    currentBytes += line.length;
  }

  @Override
  public void flush(boolean endOfInput) throws IOException {
    if (current != null) {
      current.close();
      current = null;
      finished.add(
          new StagedFile(
              currentStagingPath.toString(),
              new Path(tableDir, currentName).toString(),
              currentRows,
              currentBytes));
    }
  }

  @Override
  public Collection<StagedFile> prepareCommit() {
    List<StagedFile> out = new ArrayList<>(finished);
    finished.clear();
    return out;
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
