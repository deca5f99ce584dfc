package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryLeaseTest {

  @TempDir Path dir;
  private CheckpointLocation location;
  private Path lockFile;

  @BeforeEach
  void setUp() {
    location = new CheckpointLocation(dir.toUri());
    lockFile = dir.resolve("lock");
  }

  private QueryLease.Holder readLock() throws IOException {
    return JsonFiles.MAPPER.readValue(lockFile.toFile(), QueryLease.Holder.class);
  }

  private void writeLock(String runId, Instant heartbeatAt) throws IOException {
    JsonFiles.MAPPER.writeValue(
        lockFile.toFile(),
        new QueryLease.Holder(runId, "orders", "other-host", 4242, heartbeatAt.toString()));
  }

  @Test
  void acquireOnEmptyLocationWritesLock() throws IOException {
    Instant before = Instant.now();
    try (QueryLease lease = QueryLease.acquire(location, "run-1", "orders")) {
      assertThat(lockFile).isRegularFile();
      QueryLease.Holder holder = readLock();
      assertThat(holder.runId()).isEqualTo("run-1");
      assertThat(holder.queryName()).isEqualTo("orders");
      assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(holder.host()).isNotBlank();
      assertThat(Instant.parse(holder.heartbeatAt()))
          .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
    }
  }

  @Test
  void acquireCreatesMissingLocationDirectory() throws IOException {
    CheckpointLocation fresh = new CheckpointLocation(dir.resolve("new/query").toUri());
    try (QueryLease lease = QueryLease.acquire(fresh, "run-1", "orders")) {
      assertThat(dir.resolve("new/query/lock")).isRegularFile();
    }
  }

  @Test
  void secondRunIsRefusedWhileLeaseIsFresh() throws IOException {
    try (QueryLease first = QueryLease.acquire(location, "run-A", "orders")) {
      assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
          .isInstanceOf(QueryAlreadyRunningException.class)
          .isInstanceOf(CheckpointLocationException.class)
          .hasMessageContaining("Query 'orders' is already running")
          .hasMessageContaining("run run-A")
          .hasMessageContaining("stop the other run first")
          .hasMessageContaining("expires 30 s after its last heartbeat")
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("QUERY_ALREADY_RUNNING");
      assertThat(readLock().runId()).isEqualTo("run-A");
    }
  }

  @Test
  void leaseRenewedJustWithinExpiryIsStillHeld() throws IOException {
    writeLock("run-A", Instant.now().minus(QueryLease.EXPIRY).plusSeconds(5));

    assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
        .isInstanceOf(QueryAlreadyRunningException.class)
        .hasMessageContaining("run run-A on host other-host, pid 4242")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_ALREADY_RUNNING");
  }

  @Test
  void expiredLeaseIsTakenOver() throws IOException {
    writeLock("run-A", Instant.now().minus(QueryLease.EXPIRY).minusSeconds(1));

    try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
      QueryLease.Holder holder = readLock();
      assertThat(holder.runId()).isEqualTo("run-B");
      assertThat(Instant.parse(holder.heartbeatAt())).isAfter(Instant.now().minusSeconds(5));
    }
  }

  @Test
  void sameRunMayReacquireItsOwnFreshLease() throws IOException {
    writeLock("run-A", Instant.now());

    try (QueryLease lease = QueryLease.acquire(location, "run-A", "orders")) {
      assertThat(readLock().runId()).isEqualTo("run-A");
    }
  }

  @Test
  void unreadableLockIsTreatedAsFree() throws IOException {
    Files.writeString(lockFile, "not json {", StandardCharsets.UTF_8);

    try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
      assertThat(readLock().runId()).isEqualTo("run-B");
    }
  }

  @Test
  void closeDeletesLockHeldByThisRun() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    lease.close();

    assertThat(lockFile).doesNotExist();
    lease.close(); // idempotent
    assertThat(lockFile).doesNotExist();
  }

  @Test
  void closeKeepsLockTakenOverByAnotherRun() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    writeLock("run-B", Instant.now());

    lease.close();

    assertThat(lockFile).isRegularFile();
    assertThat(readLock().runId()).isEqualTo("run-B");
  }

  @Test
  void closeWithLockAlreadyGoneDoesNotFail() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    Files.delete(lockFile);

    lease.close();

    assertThat(lockFile).doesNotExist();
  }

  @Test
  void renewUpdatesHeartbeat() throws IOException {
    try (QueryLease lease = QueryLease.acquire(location, "run-A", "orders")) {
      Instant old = Instant.now().minus(Duration.ofMinutes(10));
      writeLock("run-A", old);

      lease.renew();

      QueryLease.Holder holder = readLock();
      assertThat(holder.runId()).isEqualTo("run-A");
      assertThat(Instant.parse(holder.heartbeatAt())).isAfter(old.plus(Duration.ofMinutes(9)));
      // a renewed lease keeps other runs out again
      assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
          .isInstanceOf(QueryAlreadyRunningException.class)
          .extracting(e -> ((LakestreamException) e).errorClass())
          .isEqualTo("QUERY_ALREADY_RUNNING");
    }
  }

  @Test
  void renewAfterCloseDoesNotRecreateLock() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    lease.close();

    lease.renew();

    assertThat(lockFile).doesNotExist();
  }

  @Test
  void lockCanBeTakenAgainAfterClose() throws IOException {
    QueryLease.acquire(location, "run-A", "orders").close();

    try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
      assertThat(readLock().runId()).isEqualTo("run-B");
    }
  }

  @Test
  void heartbeatIsWellWithinExpiry() {
    assertThat(QueryLease.HEARTBEAT.multipliedBy(3)).isLessThanOrEqualTo(QueryLease.EXPIRY);
  }

  /** A fresh lock held by process {@code pid} on {@code machine}, started at {@code start}. */
  private void writeLock(String machine, long pid, String start) throws IOException {
    JsonFiles.MAPPER.writeValue(
        lockFile.toFile(),
        new QueryLease.Holder(
            "run-A", "orders", "this-host", pid, Instant.now().toString(), machine, start));
  }

  private static String here() {
    return LocalProcess.machine()
        .orElseThrow(() -> new org.opentest4j.TestAbortedException("no /proc"));
  }

  @Test
  void aFreshLeaseWhoseProcessOnThisMachineExitedIsTakenOverAtOnce() throws Exception {
    Process holder = new ProcessBuilder("sleep", "30").start();
    String start = LocalProcess.startOf(holder.toHandle()).orElseThrow();
    holder.destroyForcibly().waitFor();
    writeLock(here(), holder.pid(), start);

    try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
      assertThat(readLock().runId()).isEqualTo("run-B");
    }
  }

  @Test
  void aLiveHolderOnThisMachineKeepsItsLease() throws Exception {
    Process holder = new ProcessBuilder("sleep", "30").start();
    try {
      writeLock(here(), holder.pid(), LocalProcess.startOf(holder.toHandle()).orElseThrow());

      assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
          .isInstanceOf(QueryAlreadyRunningException.class);
    } finally {
      holder.destroyForcibly().waitFor();
    }
  }

  @Test
  void aReusedProcessIdDoesNotPassForTheHolder() throws Exception {
    Process other = new ProcessBuilder("sleep", "30").start();
    try {
      writeLock(here(), other.pid(), "2020-01-01T00:00:00Z");

      try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
        assertThat(readLock().runId()).isEqualTo("run-B");
      }
    } finally {
      other.destroyForcibly().waitFor();
    }
  }

  @Test
  void aHolderOnAnotherMachineOrWithoutAMachineWaitsForExpiry() throws Exception {
    Process holder = new ProcessBuilder("sleep", "30").start();
    String start = LocalProcess.startOf(holder.toHandle()).orElseThrow();
    holder.destroyForcibly().waitFor();

    writeLock("another-boot/pid:[1]", holder.pid(), start);
    assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
        .isInstanceOf(QueryAlreadyRunningException.class);
    writeLock(null, holder.pid(), null); // a lock written before machines were recorded
    assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
        .isInstanceOf(QueryAlreadyRunningException.class);
  }

  @Test
  void theLockRecordsThisMachineAndProcessStart() throws IOException {
    try (QueryLease lease = QueryLease.acquire(location, "run-1", "orders")) {
      assertThat(readLock().machine()).isEqualTo(LocalProcess.machine().orElse(null));
      assertThat(readLock().processStart())
          .isEqualTo(LocalProcess.startOf(ProcessHandle.current()).orElse(null));
    }
  }
}
