package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease a run holds on its checkpoint location, so two runs never use one location at once.
 *
 * <p>The lease is a sequence of generations, files {@code lease/<n>} (n zero-padded). The newest
 * generation decides: its run holds the lease unless it released it or did not renew it for {@link
 * #EXPIRY}. A run takes the lease by creating generation n+1 with the file system's {@link
 * CreateIfAbsent} (a hard link locally, a conditional PUT with {@code If-None-Match: *} on S3), so
 * of any number of runs started at the same instant, on any machines, exactly one creates it and
 * the others are refused. The holder rewrites its own generation every {@link #HEARTBEAT}; only its
 * holder ever writes a generation after creating it, so the rewrite needs no condition. A holder
 * that finds a newer generation when it renews lost the lease (it was not renewed in time and
 * another run took over) and gets {@link QueryAlreadyRunningException}. Releasing marks the
 * generation released instead of deleting it, so a stalled old holder cannot mistake an older
 * generation for the newest one.
 *
 * <p>A lease whose holder ran on this machine (same boot, same process namespace) and has exited is
 * taken over at once, with a log line, instead of after {@link #EXPIRY}: the holder records its
 * machine and its process's start time, so a reused process id does not pass for the holder.
 *
 * <p>A {@code lock} file, the lease of releases before generations, is honoured while fresh (an
 * older version still running) and deleted once this run holds the lease.
 */
@Internal
public final class QueryLease implements AutoCloseable {
  public static final Duration HEARTBEAT = Duration.ofSeconds(5);
  public static final Duration EXPIRY = Duration.ofSeconds(30);

  /** The directory of the generations, under the checkpoint location. */
  public static final String DIRECTORY = "lease";

  private static final String LEGACY_LOCK = "lock";
  private static final String MAX_GENERATION = String.format("%020d", Long.MAX_VALUE);
  private static final Logger LOG = LoggerFactory.getLogger(QueryLease.class);

  /**
   * A generation's contents.
   *
   * @param machine this machine's boot and process namespace ({@link LocalProcess#machine}), or
   *     null where unknown (and in locks written before it was recorded)
   * @param processStart when the holder's process started, or null where unknown
   * @param released the holder let the lease go
   */
  public record Holder(
      String runId,
      String queryName,
      String host,
      long pid,
      String heartbeatAt,
      String machine,
      String processStart,
      boolean released) {

    /** A holder without machine and process start (never taken over before expiry). */
    public Holder(String runId, String queryName, String host, long pid, String heartbeatAt) {
      this(runId, queryName, host, pid, heartbeatAt, null, null, false);
    }

    /** A holder that has not released the lease. */
    public Holder(
        String runId,
        String queryName,
        String host,
        long pid,
        String heartbeatAt,
        String machine,
        String processStart) {
      this(runId, queryName, host, pid, heartbeatAt, machine, processStart, false);
    }
  }

  /** Whether {@code holder} has not released the lease and renewed it within {@link #EXPIRY}. */
  private static boolean isFresh(Holder holder) {
    return !holder.released()
        && Instant.parse(holder.heartbeatAt()).plus(EXPIRY).isAfter(Instant.now());
  }

  private static Holder releasedBy(Holder holder) {
    return new Holder(
        holder.runId(),
        holder.queryName(),
        holder.host(),
        holder.pid(),
        Instant.now().toString(),
        holder.machine(),
        holder.processStart(),
        true);
  }

  /** Generation {@code number}; {@code holder} is empty when its file cannot be parsed. */
  private record Generation(long number, Optional<Holder> holder) {}

  private final CheckpointLocation location;
  private final long generation;
  private final Holder self;
  private volatile boolean released;

  private QueryLease(CheckpointLocation location, long generation, Holder self) {
    this.location = location;
    this.generation = generation;
    this.self = self;
  }

  /**
   * Takes the lease for {@code runId}, with the create-if-absent of the location's file system
   * ({@link CreateIfAbsentSelection}).
   *
   * @throws QueryAlreadyRunningException when another run holds it, or took it at the same time
   * @throws CheckpointLocationException when the file system cannot create a file only if absent
   */
  public static QueryLease acquire(CheckpointLocation location, String runId, String queryName)
      throws IOException {
    return acquire(
        location, runId, queryName, CreateIfAbsentSelection.forPath(location.path(DIRECTORY)));
  }

  /** {@link #acquire(CheckpointLocation, String, String)} with a given create-if-absent. */
  public static QueryLease acquire(
      CheckpointLocation location, String runId, String queryName, CreateIfAbsent create)
      throws IOException {
    refuseIfLegacyLockHeld(location, runId);
    Optional<Generation> newest = newest(location);
    Optional<Holder> current = newest.flatMap(Generation::holder);
    if (current.isPresent() && current.get().runId().equals(runId) && !current.get().released()) {
      QueryLease lease = new QueryLease(location, newest.get().number(), holder(runId, queryName));
      lease.renew();
      return lease;
    }
    if (current.isPresent()) {
      refuseIfHeld(location, current.get());
    }
    long next = newest.map(g -> g.number() + 1).orElse(1L);
    Holder self = holder(runId, queryName);
    if (!create.create(file(location, next), JsonFiles.MAPPER.writeValueAsBytes(self))) {
      throw takenAtTheSameTime(location, newest(location).flatMap(Generation::holder));
    }
    QueryLease lease = new QueryLease(location, next, self);
    lease.deleteSupersededFiles();
    return lease;
  }

  /** Whether a run holds the lease of {@code location} and renewed it within {@link #EXPIRY}. */
  public static boolean isHeld(CheckpointLocation location) throws IOException {
    return newest(location).flatMap(Generation::holder).map(QueryLease::isFresh).orElse(false)
        || readLegacyLock(location).map(QueryLease::isFresh).orElse(false);
  }

  /** Whether run {@code runId} holds the lease of {@code location} now (expired or not). */
  public static boolean isHeldBy(CheckpointLocation location, String runId) throws IOException {
    return newest(location)
        .flatMap(Generation::holder)
        .map(h -> h.runId().equals(runId) && !h.released())
        .orElse(false);
  }

  /**
   * Rewrites this run's generation with a fresh heartbeat.
   *
   * @throws QueryAlreadyRunningException if another run took the lease over (this one's expired)
   */
  public void renew() throws IOException {
    if (released) {
      return;
    }
    JsonFiles.write(file(location, generation), holder(self.runId(), self.queryName()));
    Optional<Generation> newest = newest(location);
    if (newest.isPresent() && newest.get().number() > generation) {
      released = true;
      throw lost(newest.get().holder());
    }
  }

  /** Marks this run's generation released, if it is still the newest. */
  @Override
  public void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    Optional<Generation> newest = newest(location);
    if (newest.isPresent() && newest.get().number() == generation) {
      JsonFiles.write(file(location, generation), releasedBy(self));
    }
  }

  private static void refuseIfHeld(CheckpointLocation location, Holder other) {
    if (!isFresh(other)) {
      if (!other.released()) {
        LOG.info(
            "Query '{}': the lease of checkpoint location {} expired (run {}, last heartbeat {});"
                + " taking it over",
            other.queryName(),
            location,
            other.runId(),
            other.heartbeatAt());
      }
      return;
    }
    if (LocalProcess.hasExited(other)) {
      LOG.warn(
          "Query '{}': run {} held checkpoint location {} in process {} on this machine, which"
              + " has exited; taking its lease over now instead of after its expiry",
          other.queryName(),
          other.runId(),
          location,
          other.pid());
      return;
    }
    throw new QueryAlreadyRunningException(
        "Query '"
            + other.queryName()
            + "' is already running on checkpoint location "
            + location
            + " ("
            + describe(other)
            + ", last heartbeat "
            + other.heartbeatAt()
            + "). Two runs on one checkpoint location would corrupt it: stop the other run"
            + " first. If it crashed on another machine, its lease expires "
            + EXPIRY.toSeconds()
            + " s after its last heartbeat (on this machine it is taken over once its process"
            + " has exited).");
  }

  private static void refuseIfLegacyLockHeld(CheckpointLocation location, String runId)
      throws IOException {
    Optional<Holder> legacy = readLegacyLock(location);
    if (legacy.isPresent() && !legacy.get().runId().equals(runId)) {
      refuseIfHeld(location, legacy.get());
    }
  }

  private static QueryAlreadyRunningException takenAtTheSameTime(
      CheckpointLocation location, Optional<Holder> winner) {
    return new QueryAlreadyRunningException(
        "Another run took the lease of checkpoint location "
            + location
            + " at the same time as this one ("
            + winner.map(QueryLease::describe).orElse("unknown run")
            + "). Two runs on one checkpoint location would corrupt it: stop one of them.");
  }

  private QueryAlreadyRunningException lost(Optional<Holder> taker) {
    return new QueryAlreadyRunningException(
        "Query '"
            + self.queryName()
            + "' run "
            + self.runId()
            + " lost the lease of checkpoint location "
            + location
            + ": it was not renewed within "
            + EXPIRY.toSeconds()
            + " s and another run took the location over ("
            + taker.map(QueryLease::describe).orElse("unknown run")
            + "). This run must stop; the other one carries on from the location.");
  }

  private static String describe(Holder holder) {
    return "run " + holder.runId() + " on host " + holder.host() + ", pid " + holder.pid();
  }

  /** Deletes the generations before this one and the legacy lock (best effort). */
  private void deleteSupersededFiles() {
    try {
      FileSystem fs = location.path(DIRECTORY).getFileSystem();
      for (long number : generations(location)) {
        if (number < generation) {
          fs.delete(file(location, number), false);
        }
      }
      Path legacy = location.path(LEGACY_LOCK);
      if (fs.exists(legacy)) {
        fs.delete(legacy, false);
      }
    } catch (IOException e) {
      LOG.debug("Could not delete superseded lease files in {}", location, e);
    }
  }

  private static Optional<Generation> newest(CheckpointLocation location) throws IOException {
    List<Long> numbers = generations(location);
    if (numbers.isEmpty()) {
      return Optional.empty();
    }
    long newest = numbers.get(numbers.size() - 1);
    return Optional.of(new Generation(newest, read(file(location, newest))));
  }

  /** The generation numbers present, ascending. */
  private static List<Long> generations(CheckpointLocation location) throws IOException {
    Path dir = location.path(DIRECTORY);
    FileStatus[] files;
    try {
      files = dir.getFileSystem().listStatus(dir);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<Long> numbers = new ArrayList<>();
    for (FileStatus status : files == null ? new FileStatus[0] : files) {
      String name = status.getPath().getName();
      if (name.matches("\\d{20}") && name.compareTo(MAX_GENERATION) <= 0) {
        numbers.add(Long.parseLong(name));
      }
    }
    numbers.sort(null);
    return numbers;
  }

  private static Path file(CheckpointLocation location, long number) {
    return location.path(DIRECTORY + "/" + String.format("%020d", number));
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

  private static Optional<Holder> readLegacyLock(CheckpointLocation location) throws IOException {
    return read(location.path(LEGACY_LOCK));
  }

  /** A holder file's contents; empty when it is missing or cannot be parsed. */
  private static Optional<Holder> read(Path file) throws IOException {
    try {
      return JsonFiles.read(file, Holder.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      return Optional.empty();
    }
  }
}
