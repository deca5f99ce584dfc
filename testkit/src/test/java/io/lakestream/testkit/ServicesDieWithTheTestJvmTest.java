package io.lakestream.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The services must not outlive a test JVM that is killed with SIGKILL (no close, no shutdown
 * hooks): the Kafka broker JVM watches its stdin pipe, the PostgreSQL postmaster is watched by an
 * {@link OrphanReaper}.
 */
class ServicesDieWithTheTestJvmTest {

  @Test
  void kafkaAndPostgresDieAndTheirDirectoriesGoWhenTheJvmThatStartedThemIsKilled()
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ServiceHoldingJvm.class.getName());
    Process holder = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String[] services = awaitServicesLine(holder);
      ProcessHandle broker = ProcessHandle.of(Long.parseLong(services[1])).orElseThrow();
      Path brokerDirectory = Path.of(services[2]);
      ProcessHandle postmaster = ProcessHandle.of(Long.parseLong(services[3])).orElseThrow();
      Path postgresDirectory = Path.of(services[4]);
      assertThat(broker.isAlive()).isTrue();
      assertThat(postmaster.isAlive()).isTrue();

      holder.destroyForcibly(); // SIGKILL
      assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();

      assertThat(broker.onExit()).succeedsWithin(Duration.ofSeconds(15));
      assertThat(postmaster.onExit()).succeedsWithin(Duration.ofSeconds(15));
      awaitGone(brokerDirectory);
      awaitGone(postgresDirectory);
    } finally {
      holder.destroyForcibly();
    }
  }

  private static String[] awaitServicesLine(Process holder) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("SERVICES ")) {
        // keep draining the holder's output so it never blocks on a full pipe
        Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "holder-output");
        drain.setDaemon(true);
        drain.start();
        return line.split(" ");
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("the service holding JVM exited without starting services:\n" + seen);
  }

  private static void awaitGone(Path directory) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (Files.exists(directory) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(directory).doesNotExist();
  }
}
