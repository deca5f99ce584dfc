package io.lakestream.pipelines.restore;

import static io.lakestream.pipelines.restore.LegacyCheckpoints.BRONZE;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.DEMO;
import static io.lakestream.pipelines.restore.LegacyCheckpoints.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes the fixtures of {@link LegacyRestoreITCase}: one availableNow run of the demo and of the
 * bronze pipeline, copied into {@code src/test/resources/legacy-restore}. It ran once, on the code
 * before the module redesign (commit 4bbfbdf); it is kept to show how the fixtures were made, and
 * runs only when asked: {@code mvn -pl pipelines verify -Dit.test=none -Dtest=LegacyFixtureWriter
 * -Dlakestream.writeLegacyFixtures=true}.
 */
@EnabledIfSystemProperty(named = "lakestream.writeLegacyFixtures", matches = "true")
class LegacyFixtureWriter {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @Test
  void writeFixtures() throws Exception {
    try (AutoCloseable lock = LegacyCheckpoints.lock()) {
      LegacyCheckpoints.delete(ROOT);
      assertThat(LegacyCheckpoints.runDemo(ROOT.resolve(DEMO), LegacyCheckpoints.DEMO_ROWS_BEFORE))
          .isZero();

      KAFKA.createTopic("orders", LegacyCheckpoints.BRONZE_PARTITIONS);
      LegacyCheckpoints.produce(KAFKA.bootstrapServers(), LegacyCheckpoints.bronzeBatchBefore());
      assertThat(LegacyCheckpoints.runBronze(ROOT.resolve(BRONZE), KAFKA.bootstrapServers()))
          .isZero();

      Path resources = LegacyCheckpoints.RESOURCES;
      LegacyCheckpoints.delete(resources);
      LegacyCheckpoints.copy(ROOT, resources);
    }
  }
}
