package io.lakestream.connectors.delta.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.CreateIfAbsent;
import io.lakestream.state.checkpoint.CreateIfAbsentSelection;
import io.lakestream.state.checkpoint.QueryAlreadyRunningException;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.testkit.SimultaneousStart;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checkpoint location's lease on a real S3 server (S3Proxy, which answers a conditional PUT
 * with 412 as S3 does): of twenty runs started at one instant exactly one takes it, every time;
 * Flink's S3 file system (flink-s3-fs-hadoop) reads and renews it, {@link S3LeaseCreateFactory}
 * creates each generation with {@code If-None-Match: *}.
 */
class S3LeaseITCase {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("lease-test");

  private static final int RUNS = 20;

  @BeforeAll
  static void fileSystems() {
    S3.server().initializeFlinkFileSystems();
    CreateIfAbsentSelection.configure(S3.server().flinkConfiguration());
  }

  private static CheckpointLocation location(String name) {
    return new CheckpointLocation(S3.server().uri("checkpoints/" + name));
  }

  @Test
  void theS3FactoryServesCheckpointLocationsOnS3() throws Exception {
    CreateIfAbsent create = CreateIfAbsentSelection.forPath(new Path(S3.server().uri("x")));
    assertThat(create).isInstanceOf(S3LeaseCreate.class);

    Path object = new Path(S3.server().uri("create/once"));
    assertThat(create.create(object, "first".getBytes(StandardCharsets.UTF_8))).isTrue();
    assertThat(create.create(object, "second".getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(new String(S3.server().read("create/once"), StandardCharsets.UTF_8))
        .isEqualTo("first");
  }

  @Test
  void ofTwentyRunsStartedAtOnceOnS3ExactlyOneTakesTheLease() throws Exception {
    for (int round = 0; round < 3; round++) {
      CheckpointLocation shared = location("race-" + round);
      List<String> winners = race(shared, RUNS);
      assertThat(winners).as("round %d: runs holding the lease", round).hasSize(1);
      assertThat(QueryLease.isHeldBy(shared, winners.get(0))).isTrue();
    }
  }

  @Test
  void aReleasedLeaseOnS3IsTakenByTheNextRunAndTheOldHolderKnowsItLostIt() throws Exception {
    CheckpointLocation shared = location("handover");
    QueryLease first = QueryLease.acquire(shared, "run-1", "orders");
    assertThatThrownBy(() -> QueryLease.acquire(shared, "run-2", "orders"))
        .isInstanceOf(QueryAlreadyRunningException.class)
        .hasMessageContaining("run run-1");
    first.close();

    try (QueryLease second = QueryLease.acquire(shared, "run-2", "orders")) {
      second.renew();
      assertThat(QueryLease.isHeldBy(shared, "run-2")).isTrue();
      assertThat(S3.server().keys("checkpoints/handover/lease/"))
          .as("the superseded generation is deleted")
          .containsExactly("checkpoints/handover/lease/" + String.format("%020d", 2));
      first.renew(); // released: does nothing
    }
  }

  @Test
  void withoutS3ASettingsTheFactoryStillBuildsAClientFromTheEnvironment() throws Exception {
    assertThat(new S3LeaseCreateFactory().create(new Configuration()))
        .isInstanceOf(S3LeaseCreate.class);
    assertThat(new S3LeaseCreateFactory().schemes()).contains("s3", "s3a", "s3p");
  }

  @Test
  void flinkS3SettingsBecomeS3ASettings() {
    Configuration flink = new Configuration();
    flink.setString("s3.access-key", "AK");
    flink.setString("s3.secret-key", "SK");
    flink.setString("s3.path-style-access", "true");
    flink.setString("s3a.endpoint", "http://127.0.0.1:1");
    flink.setString("fs.s3a.connection.maximum", "7");
    flink.setString("state.backend.type", "rocksdb");

    org.apache.hadoop.conf.Configuration hadoop = S3LeaseCreate.hadoopConfiguration(flink);

    assertThat(hadoop.get("fs.s3a.access.key")).isEqualTo("AK");
    assertThat(hadoop.get("fs.s3a.secret.key")).isEqualTo("SK");
    assertThat(hadoop.get("fs.s3a.path.style.access")).isEqualTo("true");
    assertThat(hadoop.get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:1");
    assertThat(hadoop.get("fs.s3a.connection.maximum")).isEqualTo("7");
    assertThat(hadoop.get("fs.s3a.state.backend.type")).isNull();
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
            120);
    return results.stream().filter(java.util.Objects::nonNull).toList();
  }
}
