package io.lakestream.sql;

import static io.lakestream.sql.SqlPlanning.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The query settings of a script ({@code SET 'lakestream.*'}): read by their declared keys, the
 * overrides winning, every failure pointing at its statement, and a query started otherwise than
 * they say refused. Also where a parse error in a file points.
 */
class SqlQuerySettingsTest {
  private static final String SETTINGS =
      """
      SET 'LAKESTREAM.TRIGGER' = 'availableNow';
      SET lakestream.checkpointlocation = '/tmp/chk/q';
      SET 'table.exec.state.ttl' = '1 h';
      """;

  @Test
  void querySettingsAreReadByTheirDeclaredKeysAndOverridesWin() {
    SqlDataflow dataflow = SqlDataflow.of(SETTINGS).withOverride("lakestream.queryname", "orders");
    assertThat(dataflow.querySettings())
        .isEqualTo(
            Map.of(
                "lakestream.trigger", "availableNow",
                "lakestream.checkpointLocation", "/tmp/chk/q",
                "lakestream.queryName", "orders"));
    assertThat(dataflow.withOverride("lakestream.trigger", "once").querySettings())
        .containsEntry("lakestream.trigger", "once");
    assertThat(dataflow.withSetting("lakestream.trigger", "once").querySettings())
        .as("a setting before the script gives way to its SET")
        .containsEntry("lakestream.trigger", "availableNow");
  }

  @Test
  void anUnknownQuerySettingNamesTheClosestAtItsStatement() {
    SqlDataflow dataflow =
        SqlDataflow.fromFile("q.sql", "SET 'x' = 'y';\nSET 'lakestream.triger' = 'once';");
    assertFails(
        dataflow::querySettings,
        "UNKNOWN_OPTION",
        "'lakestream.triger' (did you mean 'lakestream.trigger'?)",
        "(statement at q.sql:2:1)");
  }

  @Test
  void aContinuousTriggerIsRefusedPointingToRealTime() {
    SqlDataflow dataflow = SqlDataflow.of("SET 'lakestream.trigger' = 'continuous=1s';");
    assertFails(dataflow::querySettings, "QUERY_UNSUPPORTED_TRIGGER", "Use realTime", "line 1");
  }

  @Test
  void aQueryStartedWithAnotherTriggerThanItsScriptSetsIsRefused() {
    SqlDataflow dataflow =
        SqlDataflow.of("SET 'lakestream.trigger' = 'availableNow';\nINSERT INTO t SELECT 1;");
    assertFails(
        () ->
            dataflow.build(
                StreamExecutionEnvironment.getExecutionEnvironment(), SqlPlanning.query()),
        "SQL_QUERY_SETTING_NOT_APPLIED",
        "lakestream.trigger = 'availableNow'",
        "SqlDataflow.queryBuilder()");
  }

  @Test
  void aParseErrorInAFilePointsAtItsLineAndColumn() {
    SqlDataflow dataflow =
        SqlDataflow.fromFile(
            "q.sql",
            "CREATE TABLE t (x INT) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO t /* a\ncomment */ SELECT nope FROM (VALUES (1)) AS v(x);");
    assertFails(
        () ->
            dataflow.build(
                StreamExecutionEnvironment.getExecutionEnvironment(), SqlPlanning.query()),
        "SQL_INVALID_STATEMENT",
        "Statement at q.sql:2:1 failed",
        "Column 'nope' not found",
        "From q.sql:3:19 to q.sql:3:22");
  }
}
