package io.lakestream.bench.delta;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Follows a local Delta log while the bench job runs, cheaply: lists {@code _delta_log} and reads
 * only the new commit files, summing the {@code numRecords} of their add actions. A progress probe
 * only (it steals as little CPU from the job as possible); the bench's verdict comes from Kernel
 * afterwards.
 */
final class CommitWatcher {
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern NUM_RECORDS = Pattern.compile("numRecords\\\\?\":(\\d+)");

  private final Path log;
  private long version;
  private long rows;

  /** Watches {@code log} from after version {@code fromVersion}. */
  CommitWatcher(Path log, long fromVersion) {
    this.log = log;
    this.version = fromVersion;
  }

  long version() {
    return version;
  }

  /** Rows added by the commits seen so far. */
  long rows() {
    return rows;
  }

  /** Reads the commits that appeared since the last poll, oldest first. */
  void poll() throws IOException {
    long newest = version;
    try (Stream<Path> files = Files.list(log)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Matcher m = COMMIT.matcher(file.getFileName().toString());
        if (m.matches()) {
          newest = Math.max(newest, Long.parseLong(m.group(1)));
        }
      }
    }
    for (long v = version + 1; v <= newest; v++) {
      for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", v)))) {
        if (line.startsWith("{\"add\"")) {
          Matcher m = NUM_RECORDS.matcher(line);
          if (!m.find()) {
            throw new IllegalStateException("Version " + v + " adds a file without numRecords");
          }
          rows += Long.parseLong(m.group(1));
        }
      }
      version = v;
    }
  }
}
