package io.lakestream.testkit.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A {@link FlinkCluster}'s JobManager and TaskManager JVMs must not outlive a test JVM that is
 * killed with SIGKILL (no close, no shutdown hooks): each is watched by an OrphanReaper, and the
 * directory the cluster created goes with them.
 */
class FlinkClusterDiesWithTheTestJvmTest {

  @Test
  void theClusterProcessesDieAndItsDirectoryGoesWhenTheJvmThatStartedThemIsKilled()
      throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            FlinkClusterHoldingJvm.class.getName());
    Process holder = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String[] cluster = awaitClusterLine(holder);
      ProcessHandle jobManager = ProcessHandle.of(Long.parseLong(cluster[1])).orElseThrow();
      ProcessHandle taskManager = ProcessHandle.of(Long.parseLong(cluster[2])).orElseThrow();
      Path directory = Path.of(cluster[3]);
      assertThat(jobManager.isAlive()).isTrue();
      assertThat(taskManager.isAlive()).isTrue();

      holder.destroyForcibly(); // SIGKILL
      assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();

      assertThat(jobManager.onExit()).succeedsWithin(Duration.ofSeconds(20));
      assertThat(taskManager.onExit()).succeedsWithin(Duration.ofSeconds(20));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (Files.exists(directory) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(directory).doesNotExist();
    } finally {
      holder.destroyForcibly();
    }
  }

  private static String[] awaitClusterLine(Process holder) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("CLUSTER ")) {
        Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "holder-output");
        drain.setDaemon(true);
        drain.start();
        return line.split(" ");
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("the cluster holding JVM exited without a cluster:\n" + seen);
  }
}
