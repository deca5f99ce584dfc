package io.lakestream.state.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a lease holder's process, recorded on this machine, has exited. Only certain answers
 * count: the holder's machine must be this one (the same Linux boot and process namespace, so a
 * container with its own process ids never judges another's), and a process with the holder's id
 * must be gone or have started at another time than the holder's (the id was reused). Anywhere else
 * (another machine, no {@code /proc}, a lock written without these fields) the answer is no, and
 * the lease waits for its expiry.
 */
final class LocalProcess {
  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path PID_NAMESPACE = Path.of("/proc/self/ns/pid");

  private LocalProcess() {}

  /**
   * This machine's boot id and process namespace, e.g. {@code
   * 2781...-e31171d06359/pid:[4026531836]}.
   */
  static Optional<String> machine() {
    try {
      String boot = Files.readString(BOOT_ID).trim();
      String namespace = Files.readSymbolicLink(PID_NAMESPACE).toString();
      return boot.isEmpty() ? Optional.empty() : Optional.of(boot + "/" + namespace);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** When {@code process} started, as an ISO instant, if the platform tells. */
  static Optional<String> startOf(ProcessHandle process) {
    return process.info().startInstant().map(Object::toString);
  }

  /** Whether {@code holder} ran on this machine and its process has exited. */
  static boolean hasExited(QueryLease.Holder holder) {
    Optional<String> here = machine();
    if (holder.machine() == null || holder.processStart() == null || here.isEmpty()) {
      return false;
    }
    if (!holder.machine().equals(here.get())) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(holder.pid());
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    Optional<String> started = startOf(process.get());
    return started.isPresent() && !started.get().equals(holder.processStart());
  }
}
