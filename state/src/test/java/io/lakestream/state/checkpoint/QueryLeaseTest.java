package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.testkit.SimultaneousStart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryLeaseTest {

  @TempDir Path dir;
  private CheckpointLocation location;

  @BeforeEach
  void setUp() {
    location = new CheckpointLocation(dir.toUri());
  }

  /** The newest generation's file, or {@code lease/00..01} in a location without one. */
  private Path newest() throws IOException {
    Path leaseDir = dir.resolve(QueryLease.DIRECTORY);
    if (!Files.isDirectory(leaseDir)) {
      return generation(1);
    }
    try (Stream<Path> files = Files.list(leaseDir)) {
      return files
          .filter(f -> f.getFileName().toString().matches("\\d+"))
          .max(Comparator.comparing(f -> f.getFileName().toString()))
          .orElse(generation(1));
    }
  }

  private Path generation(long number) {
    return dir.resolve(QueryLease.DIRECTORY).resolve(String.format("%020d", number));
  }

  private Path next() throws IOException {
    Path newest = newest();
    return Files.exists(newest)
        ? generation(Long.parseLong(newest.getFileName().toString()) + 1)
        : newest;
  }

  private QueryLease.Holder readLock() throws IOException {
    return JsonFiles.MAPPER.readValue(newest().toFile(), QueryLease.Holder.class);
  }

  /** Another run takes the lease: a new generation. */
  private void writeLock(String runId, Instant heartbeatAt) throws IOException {
    write(
        next(), new QueryLease.Holder(runId, "orders", "other-host", 4242, heartbeatAt.toString()));
  }

  private static void write(Path file, QueryLease.Holder holder) throws IOException {
    Files.createDirectories(file.getParent());
    JsonFiles.MAPPER.writeValue(file.toFile(), holder);
  }

  @Test
  void acquireOnEmptyLocationWritesLock() throws IOException {
    Instant before = Instant.now();
    try (QueryLease lease = QueryLease.acquire(location, "run-1", "orders")) {
      assertThat(generation(1)).isRegularFile();
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
      assertThat(dir.resolve("new/query/lease/" + String.format("%020d", 1))).isRegularFile();
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
    Files.createDirectories(generation(1).getParent());
    Files.writeString(generation(1), "not json {", StandardCharsets.UTF_8);

    try (QueryLease lease = QueryLease.acquire(location, "run-B", "orders")) {
      assertThat(readLock().runId()).isEqualTo("run-B");
    }
  }

  @Test
  void closeMarksTheGenerationReleasedAndKeepsIt() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    lease.close();

    assertThat(readLock().released()).isTrue();
    assertThat(QueryLease.isHeld(location)).isFalse();
    assertThat(QueryLease.isHeldBy(location, "run-A")).isFalse();
    lease.close(); // idempotent
    assertThat(readLock().released()).isTrue();
  }

  @Test
  void closeKeepsLockTakenOverByAnotherRun() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    writeLock("run-B", Instant.now());

    lease.close();

    assertThat(readLock().runId()).isEqualTo("run-B");
    assertThat(readLock().released()).isFalse();
  }

  @Test
  void closeWithLockAlreadyGoneDoesNotFail() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    Files.delete(generation(1));

    lease.close();

    assertThat(generation(1)).doesNotExist();
  }

  @Test
  void renewUpdatesHeartbeat() throws IOException {
    try (QueryLease lease = QueryLease.acquire(location, "run-A", "orders")) {
      Instant old = Instant.now().minus(Duration.ofMinutes(10));
      write(newest(), new QueryLease.Holder("run-A", "orders", "this-host", 1, old.toString()));

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

    assertThat(readLock().released()).isTrue();
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
    write(
        next(),
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

  @Test
  void aRunThatFindsANewerGenerationWhenRenewingLostTheLease() throws IOException {
    QueryLease lease = QueryLease.acquire(location, "run-A", "orders");
    writeLock("run-B", Instant.now()); // run-A stalled past its expiry; run-B took over

    assertThatThrownBy(lease::renew)
        .isInstanceOf(QueryAlreadyRunningException.class)
        .hasMessageContaining("run run-A lost the lease")
        .hasMessageContaining("run run-B on host other-host, pid 4242")
        .hasMessageContaining("This run must stop");
    lease.renew(); // reported once; the lease counts as gone
    lease.close();
    assertThat(readLock().runId()).isEqualTo("run-B");
    assertThat(readLock().released()).isFalse();
  }

  @Test
  void ofTwentyRunsStartedAtOnceExactlyOneTakesTheLease() throws Exception {
    for (int round = 0; round < 5; round++) {
      CheckpointLocation shared = new CheckpointLocation(dir.resolve("race-" + round).toUri());
      List<String> winners = race(shared, 20);
      assertThat(winners).as("round %d: runs holding the lease", round).hasSize(1);
      assertThat(QueryLease.isHeldBy(shared, winners.get(0))).isTrue();
    }
  }

  /** Starts {@code runs} acquisitions at one instant; returns the runs that got the lease. */
  private static List<String> race(CheckpointLocation shared, int runs) throws Exception {
    List<String> results =
        SimultaneousStart.run(
            runs,
            i ->
                () -> {
                  try {
                    QueryLease.acquire(shared, "run-" + i, "orders");
                    return "run-" + i;
                  } catch (QueryAlreadyRunningException e) {
                    return null;
                  }
                },
            60);
    return results.stream().filter(java.util.Objects::nonNull).toList();
  }

  @Test
  void aRunWhoseCreateLosesTheRaceIsRefusedNamingTheWinner() throws IOException {
    CreateIfAbsent losing =
        (path, contents) -> {
          write(
              java.nio.file.Path.of(path.toUri()),
              new QueryLease.Holder("run-W", "orders", "w-host", 7, Instant.now().toString()));
          return false;
        };

    assertThatThrownBy(() -> QueryLease.acquire(location, "run-L", "orders", losing))
        .isInstanceOf(QueryAlreadyRunningException.class)
        .hasMessageContaining("Another run took the lease")
        .hasMessageContaining("at the same time as this one (run run-W on host w-host, pid 7)");
  }

  @Test
  void takingTheLeaseDeletesSupersededGenerationsAndTheOldLock() throws IOException {
    writeLock("run-A", Instant.now().minus(Duration.ofMinutes(5)));
    writeLock("run-B", Instant.now().minus(Duration.ofMinutes(4)));
    write(
        dir.resolve("lock"),
        new QueryLease.Holder(
            "run-Old", "orders", "h", 1, Instant.now().minusSeconds(60).toString()));

    try (QueryLease lease = QueryLease.acquire(location, "run-C", "orders")) {
      assertThat(newest()).isEqualTo(generation(3));
      assertThat(generation(1)).doesNotExist();
      assertThat(generation(2)).doesNotExist();
      assertThat(dir.resolve("lock")).doesNotExist();
    }
  }

  @Test
  void aFreshLockOfAnOlderReleaseKeepsNewRunsOut() throws IOException {
    write(
        dir.resolve("lock"),
        new QueryLease.Holder("run-Old", "orders", "old-host", 9, Instant.now().toString()));

    assertThatThrownBy(() -> QueryLease.acquire(location, "run-B", "orders"))
        .isInstanceOf(QueryAlreadyRunningException.class)
        .hasMessageContaining("run run-Old on host old-host, pid 9");
    assertThat(QueryLease.isHeld(location)).isTrue();
  }
}
