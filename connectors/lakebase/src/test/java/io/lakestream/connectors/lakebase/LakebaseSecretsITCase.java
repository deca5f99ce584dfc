package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.lakebase.sink.writer.PostgresBatchWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real password authentication (scram-sha-256) on the embedded PostgreSQL: a rotated password is
 * picked up on reconnect from the password file, and no password ever shows up in a log line, an
 * exception, a URL or a serialized sink.
 */
class LakebaseSecretsITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final String ROLE = "rotating_app";
  private static final String FIRST = "First-" + UUID.randomUUID();
  private static final String SECOND = "Second-" + UUID.randomUUID();
  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("id", ColumnType.LONG)
          .column("name", ColumnType.STRING, false)
          .build();

  @TempDir Path dir;

  @BeforeAll
  static void requirePasswords() throws Exception {
    assumeTrue(POSTGRES.server().isEmbedded(), "needs the embedded server to edit pg_hba.conf");
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + FIRST + "'");
      s.execute("GRANT ALL ON DATABASE " + POSTGRES.databaseName() + " TO " + ROLE);
      s.execute("GRANT ALL ON SCHEMA public TO " + ROLE);
      Path hba;
      try (ResultSet rs = s.executeQuery("SHOW hba_file")) {
        rs.next();
        hba = Path.of(rs.getString(1));
      }
      String rules = Files.readString(hba, StandardCharsets.UTF_8);
      Files.writeString(
          hba,
          "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\n" + rules,
          StandardCharsets.UTF_8);
      s.execute("SELECT pg_reload_conf()");
    }
    Thread.sleep(300);
    assertThatThrownBy(() -> DriverManager.getConnection(POSTGRES.jdbcUrl(), ROLE, "wrong").close())
        .hasMessageContaining("password authentication failed");
  }

  @Test
  void aRotatedPasswordIsReadOnReconnectAndNeverShown() throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, FIRST + "\n");
    List<String> messages = new ArrayList<>();
    LakebaseSink<Object[]> sink;
    try (CapturedLogs logs = CapturedLogs.capture()) {
      // a wrong password: refused, not echoed
      LakebaseSinkException wrong =
          org.junit.jupiter.api.Assertions.assertThrows(
              LakebaseSinkException.class,
              () -> builder().passwordProvider(PasswordProvider.of(SECOND)).build());
      assertThat(wrong).hasMessageContaining("password authentication failed");
      messages.add(describe(wrong));

      sink = builder().option("passwordfile", token.toString()).build();
      messages.add(sink.toString());
      messages.add(sink.config().toString());
      messages.add(sink.sinkTarget());
      assertThat(new String(InstantiationUtil.serializeObject(sink), StandardCharsets.ISO_8859_1))
          .doesNotContain(FIRST);

      try (PostgresBatchWriter writer =
          new PostgresBatchWriter(
              sink.config().endpoint(), sink.statement(), 5, java.time.Duration.ofMillis(50))) {
        writer.write(new Object[][] {{1L, "a"}}, 1);

        // the token rotates: the old one stops working, the file has the new one
        execute("ALTER ROLE " + ROLE + " PASSWORD '" + SECOND + "'");
        Files.writeString(token, SECOND + "\n");
        execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
                + ROLE
                + "'");
        writer.write(new Object[][] {{2L, "b"}, {1L, "a2"}}, 2);
        assertThat(writer.retries()).isEqualTo(1);

        // a non-transient failure on the authenticated connection: reported without secrets
        LakebaseWriteException failure =
            org.junit.jupiter.api.Assertions.assertThrows(
                LakebaseWriteException.class, () -> writer.write(new Object[][] {{3L, null}}, 1));
        assertThat(failure.column()).isEqualTo("name");
        messages.add(describe(failure));
      }

      // with the old token, every retry fails on authentication; the error names no secret
      Files.writeString(token, FIRST + "\n");
      try (PostgresBatchWriter writer =
          new PostgresBatchWriter(
              sink.config().endpoint(), sink.statement(), 1, java.time.Duration.ofMillis(10))) {
        LakebaseWriteException refused =
            org.junit.jupiter.api.Assertions.assertThrows(
                LakebaseWriteException.class, () -> writer.write(new Object[][] {{4L, "d"}}, 1));
        assertThat(refused)
            .hasMessageContaining("cannot connect to")
            .hasMessageContaining("password authentication failed");
        messages.add(describe(refused));
      }
      assertThat(logs.lines()).anyMatch(line -> line.contains("transient error writing to"));
      messages.addAll(logs.lines());
    }
    assertThat(messages).isNotEmpty();
    assertThat(messages).allSatisfy(m -> assertThat(m).doesNotContain(FIRST, SECOND));
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM secrets ORDER BY id")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getLong(1) + "=" + rs.getString(2));
      }
      assertThat(rows).containsExactly("1=a2", "2=b");
    }
  }

  private LakebaseSinkBuilder<Object[]> builder() {
    return LakebaseSinkBuilder.<Object[]>forSchema(SCHEMA, row -> row)
        .option("endpoint", POSTGRES.jdbcUrl())
        .option("user", ROLE)
        .option("dbtable", "secrets")
        .option("upsertkey", "id")
        .option("checkpointLocation", "/tmp/chk");
  }

  private static String describe(Throwable error) {
    java.io.StringWriter text = new java.io.StringWriter();
    error.printStackTrace(new java.io.PrintWriter(text));
    return text.toString();
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
