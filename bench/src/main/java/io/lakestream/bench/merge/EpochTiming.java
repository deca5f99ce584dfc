package io.lakestream.bench.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One MERGE epoch of one side of {@code bin/bench merge}, as a child JVM reports it: one line
 * {@code epoch=E nanos=N cpuNanos=N filesInTable=N filesRead=N filesRemoved=N filesAdded=N
 * changeFiles=N updated=N inserted=N copied=N} per epoch in a report file (-1 for what a side does
 * not know). The Spark side writes the same format.
 *
 * @param epoch the epoch (0-based)
 * @param nanos wall time of the epoch's MERGE (reading its batch included)
 * @param cpuNanos the process's CPU time over the same section
 * @param filesInTable data files in the table the MERGE read
 * @param filesRead data files read after pruning (-1 if unknown)
 * @param filesRemoved data files rewritten (removed)
 * @param filesAdded data files added
 * @param changeFiles change data files added
 * @param updated rows updated
 * @param inserted rows inserted
 * @param copied unchanged rows copied into rewritten files (0 with deletion vectors)
 */
public record EpochTiming(
    int epoch,
    long nanos,
    long cpuNanos,
    long filesInTable,
    long filesRead,
    long filesRemoved,
    long filesAdded,
    long changeFiles,
    long updated,
    long inserted,
    long copied) {

  /** The report line. */
  public String toLine() {
    return String.format(
        Locale.ROOT,
        "epoch=%d nanos=%d cpuNanos=%d filesInTable=%d filesRead=%d filesRemoved=%d filesAdded=%d"
            + " changeFiles=%d updated=%d inserted=%d copied=%d",
        epoch,
        nanos,
        cpuNanos,
        filesInTable,
        filesRead,
        filesRemoved,
        filesAdded,
        changeFiles,
        updated,
        inserted,
        copied);
  }

  /**
   * Parses a report line.
   *
   * @throws IllegalArgumentException if a field is missing or not a number
   */
  public static EpochTiming parse(String line) {
    Map<String, Long> f = new HashMap<>();
    for (String kv : line.trim().split("\\s+")) {
      String[] p = kv.split("=", 2);
      if (p.length != 2) {
        throw new IllegalArgumentException("not key=value: '" + kv + "' in " + line);
      }
      f.put(p[0], Long.parseLong(p[1]));
    }
    return new EpochTiming(
        (int) get(f, "epoch", line),
        get(f, "nanos", line),
        get(f, "cpuNanos", line),
        get(f, "filesInTable", line),
        get(f, "filesRead", line),
        get(f, "filesRemoved", line),
        get(f, "filesAdded", line),
        get(f, "changeFiles", line),
        get(f, "updated", line),
        get(f, "inserted", line),
        get(f, "copied", line));
  }

  private static long get(Map<String, Long> f, String key, String line) {
    Long v = f.get(key);
    if (v == null) {
      throw new IllegalArgumentException("no " + key + " in epoch report line " + line);
    }
    return v;
  }

  /** Reads a report file. */
  public static List<EpochTiming> read(Path file) throws IOException {
    List<EpochTiming> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        out.add(parse(line));
      }
    }
    return out;
  }

  /** Writes a report file. */
  public static void write(Path file, List<EpochTiming> epochs) throws IOException {
    List<String> lines = new ArrayList<>();
    for (EpochTiming e : epochs) {
      lines.add(e.toLine());
    }
    Files.write(file, lines);
  }
}
