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

  /** Nanoseconds of CPU the server's processes used so far. */
  long nanos() {
    long ticks = ticks(postmaster.pid(), true);
    for (ProcessHandle child : postmaster.descendants().toList()) {
      ticks += ticks(child.pid(), false);
    }
    return ticks * NANOS_PER_TICK;
  }

  private static long ticks(long pid, boolean withReapedChildren) {
    try {
      String stat = Files.readString(stat(pid));
      // fields after the command name in parentheses: state is field 3; utime 14, stime 15,
      // cutime 16, cstime 17 (1-based)
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      if (withReapedChildren) {
        t += Long.parseLong(f[13]) + Long.parseLong(f[14]);
      }
      return t;
    } catch (IOException | RuntimeException e) {
      return 0; // the process ended meanwhile: its time moved to the postmaster's children time
    }
  }

  private static Path stat(long pid) {
    return Path.of("/proc", Long.toString(pid), "stat");
  }
}
