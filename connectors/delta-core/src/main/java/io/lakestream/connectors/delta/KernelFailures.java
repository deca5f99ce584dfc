package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Turns what Delta Kernel and its engine throw on a damaged table into errors that name the damaged
 * file and say what to do: a data file the log references but that is gone ({@code
 * DELTA_FILE_NOT_FOUND}), a commit file that is no longer JSON ({@code DELTA_TABLE_CORRUPT}: the
 * engine's parse error names no file, so the newest commit files are read to find it). Anything
 * else keeps the caller's error class with Kernel's message.
 */
final class KernelFailures {
  private static final Pattern MISSING_FILE = Pattern.compile("File (\\S+) does not exist");
  private static final Pattern COMMIT_FILE = Pattern.compile("\\d{20}\\.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Commit files read, newest first, to find the damaged one. */
  private static final int COMMITS_TO_CHECK = 200;

  private KernelFailures() {}

  /**
   * The typed error for {@code failure}, met while {@code action} (e.g. {@code "Cannot read version
   * 3 of"}) on {@code table}.
   */
  static DeltaTableException describe(
      DeltaTable table, String action, Exception failure, DeltaErrorClass otherwise) {
    Optional<String> missing = missingFile(failure);
    if (missing.isPresent()) {
      return new DeltaTableException(
          DeltaErrorClass.DELTA_FILE_NOT_FOUND,
          "Data file "
              + missing.get()
              + " of the Delta table at "
              + table.path()
              + " is gone, but the table's log still references it: it was deleted outside Delta"
              + " (by hand, by a bucket lifecycle rule, or by a VACUUM with a retention shorter"
              + " than this reader needed). Restore the file (e.g. from the bucket's object"
              + " versions) or RESTORE the table to a version that does not reference it, then run"
              + " again.",
          failure);
    }
    if (anyMessageContains(failure, "Could not parse JSON")) {
      String damaged = damagedCommit(table).orElse("(one of the files under _delta_log)");
      return new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_CORRUPT,
          "Commit file "
              + damaged
              + " of the Delta table at "
              + table.path()
              + " is not valid JSON: it was truncated or overwritten outside Delta, so the table"
              + " cannot be read and nothing more is written to it. Restore the file from a backup"
              + " or the bucket's object versions; do not delete it, later versions build on it.",
          failure);
    }
    return new DeltaTableException(
        otherwise, action + " " + table.path() + ": " + failure.getMessage(), failure);
  }

  private static Optional<String> missingFile(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      Matcher m = MISSING_FILE.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        return Optional.of(m.group(1));
      }
      if (t instanceof FileNotFoundException && t.getMessage() != null) {
        return Optional.of(t.getMessage());
      }
    }
    return Optional.empty();
  }

  private static boolean anyMessageContains(Throwable failure, String text) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (String.valueOf(t.getMessage()).contains(text)) {
        return true;
      }
    }
    return false;
  }

  /** The newest commit file of {@code table} with a line that is not JSON, if one is found. */
  private static Optional<String> damagedCommit(DeltaTable table) {
    try {
      Path log = new Path(table.path(), "_delta_log");
      FileSystem fs = log.getFileSystem(table.hadoopConfiguration());
      List<FileStatus> commits = new ArrayList<>();
      for (FileStatus status : fs.listStatus(log)) {
        if (COMMIT_FILE.matcher(status.getPath().getName()).matches()) {
          commits.add(status);
        }
      }
      commits.sort(Comparator.comparing((FileStatus s) -> s.getPath().getName()).reversed());
      for (FileStatus commit : commits.subList(0, Math.min(COMMITS_TO_CHECK, commits.size()))) {
        if (!isJsonLines(fs, commit.getPath())) {
          return Optional.of(commit.getPath().toString());
        }
      }
    } catch (IOException | RuntimeException e) {
      // the error still says the log is damaged, without naming the file
    }
    return Optional.empty();
  }

  private static boolean isJsonLines(FileSystem fs, Path file) throws IOException {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isBlank()) {
          JSON.readTree(line);
        }
      }
      return true;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      return false;
    }
  }
}
