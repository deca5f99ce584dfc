package io.lakestream.testkit.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds the checkpoints Flink retained in a checkpoint directory, on any file system Flink can read
 * ({@code file://}, {@code s3://} once {@link FileSystem#initialize} has seen its configuration).
 *
 * <p>Layout: {@code <checkpointDirectory>/<jobId>/chk-<n>/_metadata}. A {@code chk-<n>} directory
 * without {@code _metadata} is an unfinished checkpoint and is ignored.
 */
public final class RetainedCheckpoints {

  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

  private RetainedCheckpoints() {}

  /** The directory of one job's checkpoints: {@code <checkpointDirectory>/<jobId>}. */
  public static URI jobDirectory(URI checkpointDirectory, JobID jobId) {
    return child(checkpointDirectory, jobId.toHexString());
  }

  /**
   * The newest complete checkpoint ({@code chk-<n>} with the highest n that has {@code _metadata})
   * directly under {@code jobDirectory}, or empty if there is none or the directory does not exist.
   *
   * @throws UncheckedIOException if the directory cannot be listed
   */
  public static Optional<URI> latest(URI jobDirectory) {
    Path dir = new Path(jobDirectory);
    try {
      FileSystem fs = dir.getFileSystem();
      if (!fs.exists(dir)) {
        return Optional.empty();
      }
      FileStatus[] entries = fs.listStatus(dir);
      if (entries == null) {
        return Optional.empty();
      }
      long best = -1;
      Path bestPath = null;
      for (FileStatus entry : entries) {
        Matcher m = CHECKPOINT.matcher(entry.getPath().getName());
        if (!m.matches()) {
          continue;
        }
        long id = Long.parseLong(m.group(1));
        if (id > best && fs.exists(new Path(entry.getPath(), "_metadata"))) {
          best = id;
          bestPath = entry.getPath();
        }
      }
      return Optional.ofNullable(bestPath).map(Path::toUri);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list checkpoints in " + jobDirectory, e);
    }
  }

  static URI child(URI parent, String name) {
    String base = parent.toString();
    return URI.create(base.endsWith("/") ? base + name : base + "/" + name);
  }
}
