package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.SchemaRestartLog;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JobManager's request to a program it runs again after a schema change, and the bounds the new
 * program applies against the query's {@code schema-restarts}.
 */
class ResubmittedRunTest {
  @TempDir Path dir;

  private static Configuration carrying(ResubmittedRun run) {
    Configuration conf = new Configuration();
    conf.setString(SchemaChangeResubmitter.REQUEST_KEY, run.toJson());
    return conf;
  }

  @Test
  void theRequestTravelsAsJsonThroughTheFlinkConfiguration() throws Exception {
    ResubmittedRun sent =
        new ResubmittedRun("a1b2", "run-1", List.of("amount", "odd \"name\"\\\n"), true);

    assertThat(ResubmittedRun.requested(carrying(sent))).contains(sent);
    assertThat(ResubmittedRun.requested(new Configuration())).isEmpty();
  }

  @Test
  void atMostMaxPerHourRestartsAreAdmittedThenTheRefusalNamesTheOption() throws Exception {
    CheckpointLocation location = new CheckpointLocation(dir.toUri());
    SchemaChangeRestarts policy = new SchemaChangeRestarts(true, 2);
    new ResubmittedRun("j1", "r1", List.of("a"), true).admit("q", policy, location);
    new ResubmittedRun("j2", "r2", List.of("b"), true).admit("q", policy, location);

    assertThat(location.readSchemaRestarts().restartMillis()).hasSize(2);
    assertThat(location.readSchemaRestarts().lastChange()).containsExactly("b");
    assertThatThrownBy(
            () -> new ResubmittedRun("j3", "r3", List.of("c"), true).admit("q", policy, location))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("QUERY_SCHEMA_CHANGE_RESTART_REFUSED")
        .hasMessageContaining("--max-schema-restarts-per-hour");
    assertThat(location.readSchemaRestarts().restartMillis()).as("nothing recorded").hasSize(2);
  }

  @Test
  void aRebuiltRunFailingForTheSameColumnsBeforeAnyEpochIsALoop() throws Exception {
    CheckpointLocation location = new CheckpointLocation(dir.toUri());
    SchemaChangeRestarts policy = SchemaChangeRestarts.defaults();
    new ResubmittedRun("j1", "r1", List.of("amount"), true).admit("q", policy, location);

    // the same columns again, but the run committed epochs: a new change, admitted
    new ResubmittedRun("j2", "r2", List.of("amount"), true).admit("q", policy, location);
    // other columns, nothing committed: admitted
    new ResubmittedRun("j3", "r3", List.of("tax"), false).admit("q", policy, location);
    assertThatThrownBy(
            () ->
                new ResubmittedRun("j4", "r4", List.of("tax"), false).admit("q", policy, location))
        .hasMessageContaining("QUERY_SCHEMA_CHANGE_RESTART_REFUSED")
        .hasMessageContaining("failed for the same columns again before committing an epoch");
  }

  @Test
  void restartsOlderThanAnHourDoNotCount() {
    SchemaRestartBudget budget = new SchemaRestartBudget("q", new SchemaChangeRestarts(true, 1));
    Instant now = Instant.parse("2026-12-02T12:00:00Z");
    SchemaRestartLog log =
        SchemaRestartBudget.withRestart(
            SchemaRestartLog.empty(), List.of("a"), now.minusSeconds(3601));

    assertThat(budget.refusal(log, List.of("b"), true, now)).isEqualTo(Optional.empty());
    assertThat(budget.refusal(log, List.of("b"), true, now.minusSeconds(2))).isPresent();
    assertThat(SchemaRestartBudget.withRestart(log, List.of("b"), now).restartMillis())
        .as("the old restart is dropped from the log")
        .containsExactly(now.toEpochMilli());
  }
}
