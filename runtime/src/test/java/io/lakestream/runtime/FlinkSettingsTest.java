package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.Test;

/** The restart strategy a run is submitted with. */
class FlinkSettingsTest {

  @Test
  void withoutAConfiguredStrategyARunRestartsAFewTimesInARowThenFails() {
    Configuration conf = new Configuration();
    FlinkSettings.boundRestarts(conf, new Configuration());

    assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
    assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS))
        .isEqualTo(FlinkSettings.RESTART_ATTEMPTS);
  }

  /**
   * {@code flink run} submits with the cluster's config.yaml, whose strategy (the repository's:
   * back off and restart forever) must not be replaced by the job's bounded one: a TaskManager that
   * dies takes several failed restarts to be noticed, more than the bound allows.
   */
  @Test
  void theStrategyOfTheConfigurationTheJobIsSubmittedWithIsLeftToApply() {
    Configuration clusterYaml = new Configuration();
    clusterYaml.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
    clusterYaml.set(
        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, Integer.MAX_VALUE);
    Configuration conf = new Configuration();

    FlinkSettings.boundRestarts(conf, clusterYaml);

    assertThat(conf.toMap()).as("nothing set over the cluster's strategy").isEmpty();
  }

  @Test
  void theCallersStrategyIsKept() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));

    FlinkSettings.boundRestarts(conf, new Configuration());

    assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
    assertThat(conf.contains(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS))
        .isFalse();
  }

  /**
   * The embedded REST and metrics ports come from below the ephemeral range ({@link
   * io.lakestream.api.net.LoopbackPorts}), where connections cannot take them, and differ.
   */
  @Test
  void theEmbeddedPortsAreReservedBelowTheEphemeralRange() throws Exception {
    java.nio.file.Path range = java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(range));
    int ephemeralFrom; // read as a stream: /proc files report size 0
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(range)) {
      ephemeralFrom = Integer.parseInt(new String(in.readAllBytes()).trim().split("\\s+")[0]);
    }
    Configuration conf = new Configuration();
    FlinkSettings.embeddedPorts(conf);
    int rest = conf.get(org.apache.flink.configuration.RestOptions.PORT);
    int metrics = Integer.parseInt(conf.getString("metrics.reporter.lakestream.port", "0"));
    assertThat(rest).isBetween(20_000, ephemeralFrom - 1);
    assertThat(metrics).isBetween(20_000, ephemeralFrom - 1).isNotEqualTo(rest);
  }
}
