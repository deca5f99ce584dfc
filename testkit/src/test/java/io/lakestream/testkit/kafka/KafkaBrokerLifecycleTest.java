package io.lakestream.testkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class KafkaBrokerLifecycleTest {

  @Test
  void closeKillsTheBrokerJvmAndDeletesItsDirectory() {
    KafkaBroker broker = KafkaBroker.start();
    ProcessHandle process = broker.process();
    Path directory = broker.directory();
    try {
      assertThat(process.isAlive()).isTrue();
      assertThat(Files.isRegularFile(broker.logFile())).isTrue();
      assertThat(process.info().commandLine().orElse("")).contains("-Dkafka.logs.dir=" + directory);
    } finally {
      broker.close();
    }

    assertThat(process.isAlive()).isFalse();
    assertThat(process.onExit()).succeedsWithin(Duration.ofSeconds(1));
    assertThat(Files.exists(directory)).isFalse();
    broker.close(); // idempotent
  }

  @Test
  void aBrokerThatCannotStartFailsWithItsLog() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> KafkaBroker.start(java.util.Map.of("node.id", "not-a-number")))
        .isInstanceOf(KafkaBrokerStartException.class)
        .hasMessageContaining("exited with status")
        .hasMessageContaining("Invalid value not-a-number");
  }
}
