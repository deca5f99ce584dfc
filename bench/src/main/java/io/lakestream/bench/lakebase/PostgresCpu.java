package io.lakestream.bench.lakebase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * CPU time used by an embedded PostgreSQL server, read from Linux's {@code /proc}: the postmaster's
 * own and reaped children's time (backends that exited) plus the time of every live descendant (the
 * sinks' backends). On a shared 2-core machine the sinks' wall-clock rates depend on how much CPU
 * the server gets; CPU per row (JVM + server) is the steadier comparison.
 */
final class PostgresCpu {
  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ = 100 on Linux

  private final ProcessHandle postmaster;

  private PostgresCpu(ProcessHandle postmaster) {
    this.postmaster = postmaster;
  }

  /** The server's CPU meter, or empty when the server is not a local process (external). */
  static Optional<PostgresCpu> of(Optional<ProcessHandle> postmaster) {
    return postmaster.filter(p -> Files.exists(stat(p.pid()))).map(PostgresCpu::new);
  }

  /**
   * Nanoseconds of CPU the server's processes used so far: a consistent snapshot. A backend that
   * exits between reading the postmaster's reaped-children time and reading its own would be lost
   * (its {@code /proc} entry gone, its time not yet in the postmaster's figure read before); the
   * JDBC rewrite side's 2 M upserts once read 0.24 s that way, sampled just as its connections
   * closed. So the postmaster's figure is read before and after the live backends' and the read is
   * repeated until no backend was reaped in between.
   */
  long nanos() {
    for (int attempt = 0; ; attempt++) {
      long[] before = ticks(postmaster.pid());
      long live = 0;
      for (ProcessHandle child : postmaster.descendants().toList()) {
        live += ticks(child.pid())[0];
      }
      long[] after = ticks(postmaster.pid());
      if (after[1] == before[1] || attempt >= 100) {
        return (after[0] + after[1] + live) * NANOS_PER_TICK;
      }
    }
  }

  /**
   * A process's own CPU ticks (user + system) and its reaped children's; zeros if it ended and was
   * reaped meanwhile ({@link #nanos} then sees the postmaster's children's time change and
   * retries).
   */
  private static long[] ticks(long pid) {
    try {
      String stat = Files.readString(stat(pid));
      // fields after the command name in parentheses: state is field 3; utime 14, stime 15,
      // cutime 16, cstime 17 (1-based)
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new long[] {
        Long.parseLong(f[11]) + Long.parseLong(f[12]), Long.parseLong(f[13]) + Long.parseLong(f[14])
      };
    } catch (IOException | RuntimeException e) {
      return new long[2];
    }
  }

  private static Path stat(long pid) {
    return Path.of("/proc", Long.toString(pid), "stat");
  }
}
