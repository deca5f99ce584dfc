package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlScriptTest {
  @Test
  void splitsAtSemicolonsOutsideLiteralsIdentifiersAndComments() {
    String script =
        """
        -- a comment; not a statement
        CREATE TABLE `a;b` (x STRING) WITH ('k' = 'it''s; fine');

          /* block; comment */ INSERT INTO t
        SELECT "c;d" FROM s -- trailing; comment
        ;
        ;
        SET 'x' = 'y';
        SELECT * FROM t /*+ OPTIONS('a' = ';') */""";
    List<SqlScript.Statement> statements = SqlScript.statements(script);
    assertThat(statements)
        .extracting(SqlScript.Statement::text)
        .containsExactly(
            "CREATE TABLE `a;b` (x STRING) WITH ('k' = 'it''s; fine')",
            "INSERT INTO t\nSELECT \"c;d\" FROM s",
            "SET 'x' = 'y'",
            "SELECT * FROM t /*+ OPTIONS('a' = ';') */");
    assertThat(statements)
        .extracting(SqlScript.Statement::position)
        .containsExactly(
            "line 2, column 1", "line 4, column 24", "line 8, column 1", "line 9, column 1");
    assertThat(statements)
        .extracting(SqlScript.Statement::isInsert)
        .containsExactly(false, true, false, false);
    assertThat(statements.get(2).firstWord()).isEqualTo("SET");
  }

  @Test
  void anEmptyScriptHasNoStatements() {
    assertThat(SqlScript.statements(" -- only a comment\n ; ")).isEmpty();
  }

  @Test
  void aCommentInsideAStatementIsBlankedOutKeepingThePositionsAfterIt() {
    String script = "INSERT INTO t /* one\ntwo */ SELECT\n  x -- note\nFROM s";
    SqlScript.Statement statement = SqlScript.statements(script).get(0);
    assertThat(statement.text())
        .isEqualTo("INSERT INTO t       \n       SELECT\n  x        \nFROM s")
        .hasSameSizeAs(script);
  }
}
