package io.lakestream.sql;

import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;

/** Starts SQL statements the way the tests run them: one availableNow query of the runtime. */
public final class SqlQueries {
  private SqlQueries() {}

  /**
   * Starts {@code script} as query {@code name} with the availableNow trigger, parallelism 2 and up
   * to three in-job restarts 200 ms apart (an injected task failure restarts from the last
   * checkpoint).
   */
  public static StreamingQuery availableNow(String script, String name, Path checkpointLocation)
      throws Exception {
    Configuration flink = new Configuration();
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    return StreamingQueryBuilder.of(SqlDataflow.of(script))
        .queryName(name)
        .checkpointLocation(checkpointLocation.toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(flink)
        .start();
  }
}
