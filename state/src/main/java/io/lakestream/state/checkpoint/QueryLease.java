package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease a run holds on its checkpoint location, so two runs never use one location at once. The
 * holder rewrites {@code lock} every {@link #HEARTBEAT}; a lease not renewed for {@link #EXPIRY}
 * belongs to a run that died and may be taken over.
 *
 * <p>A lease whose holder ran on this machine (same boot, same process namespace) and has exited is
 * taken over at once, with a log line, instead of after {@link #EXPIRY}: the holder records its
 * machine and its process's start time, so a reused process id does not pass for the holder.
 *
 * <p>Object stores have no locks: two runs started within the same second could both acquire;
 * {@link #acquire} re-reads after writing to narrow that window.
 */
@Internal
public final class QueryLease implements AutoCloseable {
  public static final Duration HEARTBEAT = Duration.ofSeconds(5);
  public static final Duration EXPIRY = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(QueryLease.class);

  /**
   * The lock file's contents.
   *
   * @param machine this machine's boot and process namespace ({@link LocalProcess#machine}), or
   *     null where unknown (and in locks written before it was recorded)
   * @param processStart when the holder's process started, or null where unknown
   */
  public record Holder(
      String runId,
      String queryName,
      String host,
      long pid,
      String heartbeatAt,
      String machine,
      String processStart) {

    /** A holder without machine and process start (never taken over before expiry). */
    public Holder(String runId, String queryName, String host, long pid, String heartbeatAt) {
      this(runId, queryName, host, pid, heartbeatAt, null, null);
    }
  }

  private final Path lock;
  private final Holder self;
  private volatile boolean released;

  private QueryLease(Path lock, Holder self) {
    this.lock = lock;
    this.self = self;
  }

  /**
   * Takes the lease for {@code runId}.
   *
   * @throws QueryAlreadyRunningException when another run renewed it within {@link #EXPIRY}
   */
  public static QueryLease acquire(CheckpointLocation location, String runId, String queryName)
      throws IOException {
    Path lock = location.path("lock");
    Optional<Holder> current = read(lock);
    if (current.isPresent() && !current.get().runId().equals(runId)) {
      Holder other = current.get();
      Instant last = Instant.parse(other.heartbeatAt());
      if (last.plus(EXPIRY).isAfter(Instant.now()) && LocalProcess.hasExited(other)) {
        LOG.warn(
            "Query '{}': run {} held checkpoint location {} in process {} on this machine, which"
                + " has exited; taking its lease over now instead of after its expiry",
            other.queryName(),
            other.runId(),
            location,
            other.pid());
      } else if (last.plus(EXPIRY).isAfter(Instant.now())) {
        throw new QueryAlreadyRunningException(
            "Query '"
                + other.queryName()
                + "' is already running on checkpoint location "
                + location
                + " (run "
                + other.runId()
                + " on host "
                + other.host()
                + ", pid "
                + other.pid()
                + ", last heartbeat "
                + other.heartbeatAt()
                + "). Two runs on one checkpoint location would corrupt it: stop the other run"
                + " first. If it crashed on another machine, its lease expires "
                + EXPIRY.toSeconds()
                + " s after its last heartbeat (on this machine it is taken over once its process"
                + " has exited).");
      }
    }
    QueryLease lease = new QueryLease(lock, holder(runId, queryName));
    lease.renew();
    Optional<Holder> after = read(lock);
    if (after.isEmpty() || !after.get().runId().equals(runId)) {
      throw new QueryAlreadyRunningException(
          "Another run took the lease of checkpoint location "
              + location
              + " at the same time as this one ("
              + after.map(Holder::runId).orElse("unknown")
              + "); stop one of them.");
    }
    return lease;
  }

  /** Whether a run holds the lease of {@code location} and renewed it within {@link #EXPIRY}. */
  public static boolean isHeld(CheckpointLocation location) throws IOException {
    return read(location.path("lock"))
        .map(h -> Instant.parse(h.heartbeatAt()).plus(EXPIRY).isAfter(Instant.now()))
        .orElse(false);
  }

  /** Whether run {@code runId} holds the lease of {@code location} now (expired or not). */
  public static boolean isHeldBy(CheckpointLocation location, String runId) throws IOException {
    return read(location.path("lock")).map(h -> h.runId().equals(runId)).orElse(false);
  }

  /** Rewrites the lock with a fresh heartbeat. */
  public void renew() throws IOException {
    if (!released) {
      JsonFiles.write(lock, holder(self.runId(), self.queryName()));
    }
  }

  /** Deletes the lock if this run still holds it. */
  @Override
  public void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    Optional<Holder> current = read(lock);
    if (current.isPresent() && current.get().runId().equals(self.runId())) {
      lock.getFileSystem().delete(lock, false);
    }
  }

  private static Holder holder(String runId, String queryName) {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown";
    }
    return new Holder(
        runId,
        queryName,
        host,
        ProcessHandle.current().pid(),
        Instant.now().toString(),
        LocalProcess.machine().orElse(null),
        LocalProcess.startOf(ProcessHandle.current()).orElse(null));
  }

  private static Optional<Holder> read(Path lock) throws IOException {
    try {
      return JsonFiles.read(lock, Holder.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      return Optional.empty();
    }
  }
}
