package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementErrorsTest {
  private final SqlScript.Statement statement =
      SqlScript.statements("\n\n   INSERT INTO t\nSELEC x FROM s").get(0);

  @Test
  void flinksPositionsInAStatementBecomeTheScriptsAtTheFilesName() {
    StatementErrors errors = new StatementErrors("pipeline.sql");
    assertThat(errors.where(statement)).isEqualTo("pipeline.sql:3:4");
    assertThat(
            errors.inScript(
                statement,
                "Encountered \"SELEC\" at line 2, column 1. From line 1, column 13 to line 1,"
                    + " column 13"))
        .isEqualTo(
            "Encountered \"SELEC\" at pipeline.sql:4:1. From pipeline.sql:3:16 to"
                + " pipeline.sql:3:16");
  }

  @Test
  void withoutAFileNameTheyAreLinesAndColumns() {
    StatementErrors errors = new StatementErrors(null);
    assertThat(errors.where(statement)).isEqualTo("line 3, column 4");
    assertThat(errors.inScript(statement, "at line 2, column 7")).isEqualTo("at line 4, column 7");
  }
}
