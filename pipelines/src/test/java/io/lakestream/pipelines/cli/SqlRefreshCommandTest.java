package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code lakestream sql refresh} passes on when a schema change restarts it. */
class SqlRefreshCommandTest {
  @Test
  void aRestartRunsTheScriptsTextWithoutOneOffFlags() {
    CommandLine.ParseResult parsed =
        new CommandLine(new LakestreamCli())
            .parseArgs(
                "sql",
                "refresh",
                "orders_5m",
                "-f",
                "pipelines/sql/e7_orders_5m.sql",
                "--restore-from=s3://b/chk/savepoints/sp-1",
                "--parallelism",
                "4");
    SqlRefreshCommand refresh =
        (SqlRefreshCommand) parsed.subcommand().subcommand().commandSpec().userObject();
    assertThat(refresh.restartArguments("CREATE ...;"))
        .isEqualTo(
            List.of(
                "sql",
                "refresh",
                "orders_5m",
                "--script",
                "CREATE ...;",
                "--script-name",
                "e7_orders_5m.sql",
                "--parallelism",
                "4"));
  }
}
