package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lakestream.connectors.lakebase.connect.LoopbackHttp;
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
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
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

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(1)
              .build());

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

      // with the old token, the fresh attempt fails too: a clear error that names no secret
      Files.writeString(token, FIRST + "\n");
      try (PostgresBatchWriter writer =
          new PostgresBatchWriter(
              sink.config().endpoint(), sink.statement(), 1, java.time.Duration.ofMillis(10))) {
        LakebaseSinkException refused =
            org.junit.jupiter.api.Assertions.assertThrows(
                LakebaseSinkException.class, () -> writer.write(new Object[][] {{4L, "d"}}, 1));
        assertThat(refused.errorClass()).isEqualTo(LakebaseSinkException.AUTHENTICATION_FAILED);
        assertThat(refused)
            .hasMessageContaining("failed twice")
            .hasMessageContaining("password authentication failed")
            .hasMessageContaining("option passwordfile");
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

  /**
   * A token provider that caches its token, as a real one does: after the password rotates
   * mid-stream and the connection drops, the reconnect is refused with the cached token (28P01),
   * asks for a fresh one once and goes on; every row of every batch is in the table.
   */
  @Test
  void aRefusedTokenIsFetchedAfreshOnceAndNoRowIsLost() throws Exception {
    String role = "token_app";
    String first = "Tok1-" + UUID.randomUUID();
    String second = "Tok2-" + UUID.randomUUID();
    execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + first + "'");
    execute("GRANT ALL ON SCHEMA public TO " + role);
    allowPasswordLogin(role);
    CachingTokens tokens = new CachingTokens(first);
    LakebaseSink<Object[]> sink =
        LakebaseSinkBuilder.<Object[]>forSchema(SCHEMA, row -> row)
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", role)
            .option("dbtable", "rotated")
            .option("upsertkey", "id")
            .option("checkpointLocation", "/tmp/chk")
            .credentialProvider(tokens)
            .build();
    int batches = 40;
    int rows = 25;
    List<String> messages = new ArrayList<>();
    try (CapturedLogs logs = CapturedLogs.capture();
        PostgresBatchWriter writer =
            new PostgresBatchWriter(
                sink.config().endpoint(), sink.statement(), 3, java.time.Duration.ofMillis(10))) {
      for (int b = 0; b < batches; b++) {
        if (b == batches / 2) {
          // the token rotates: the server takes only the new one, the store has it, the
          // provider still holds the old one; the current session is cut
          execute("ALTER ROLE " + role + " PASSWORD '" + second + "'");
          CachingTokens.STORE.set(second);
          execute(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
                  + role
                  + "'");
        }
        Object[][] batch = new Object[rows][];
        for (int i = 0; i < rows; i++) {
          batch[i] = new Object[] {(long) (b * rows + i), "v" + b};
        }
        writer.write(batch, rows);
      }
      assertThat(writer.connects()).isEqualTo(2);
      assertThat(tokens.fetches).isEqualTo(2);
      assertThat(logs.lines())
          .anyMatch(line -> line.contains("reconnecting once with a fresh one"));

      // the store keeps handing out a token the server refuses: a clear error, no second retry
      execute("ALTER ROLE " + role + " PASSWORD '" + first + "x'");
      execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
      LakebaseSinkException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              LakebaseSinkException.class, () -> writer.write(new Object[][] {{-1L, "lost?"}}, 1));
      assertThat(refused.errorClass()).isEqualTo(LakebaseSinkException.AUTHENTICATION_FAILED);
      assertThat(refused).hasMessageContaining("Check option user and");
      messages.add(describe(refused));
      messages.addAll(logs.lines());
    }
    messages.add(sink.toString());
    assertThat(messages).allSatisfy(m -> assertThat(m).doesNotContain(first, second));
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*), count(DISTINCT id), min(id), max(id) FROM rotated")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo((long) batches * rows);
      assertThat(rs.getLong(2)).isEqualTo((long) batches * rows);
      assertThat(rs.getLong(3)).isZero();
      assertThat(rs.getLong(4)).isEqualTo((long) batches * rows - 1);
    }
  }

  /**
   * Options only, as a Databricks user writes them: the endpoint id is resolved through a loopback
   * workspace API, the password is an OAuth token from a loopback OIDC endpoint, and when the token
   * rotates mid-stream the refused reconnect fetches a new one; no row is lost and neither the
   * client secret nor a token shows in logs, errors or the sink's description.
   */
  @Test
  void databricksOAuthAndAnEndpointIdThroughOptions() throws Exception {
    String role = "oauth_app";
    String first = "oauth-1-" + UUID.randomUUID();
    String second = "oauth-2-" + UUID.randomUUID();
    String clientSecret = "dose-" + UUID.randomUUID();
    execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + first + "'");
    execute("GRANT ALL ON SCHEMA public TO " + role);
    allowPasswordLogin(role);
    Path client = dir.resolve("sp.properties");
    Files.writeString(client, "client_id=sp-1\nclient_secret=" + clientSecret + "\n");
    String basic =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString(("sp-1:" + clientSecret).getBytes(StandardCharsets.UTF_8));
    String pgHost = POSTGRES.jdbcUrl().replaceFirst("jdbc:postgresql://([^/]+)/.*", "$1");
    java.util.concurrent.atomic.AtomicReference<String> issued =
        new java.util.concurrent.atomic.AtomicReference<>(first);
    List<String> messages = new ArrayList<>();
    try (LoopbackHttp workspace =
            new LoopbackHttp(
                request -> {
                  if (request.path().equals("/oidc/v1/token")) {
                    return basic.equals(request.authorization())
                            && request.body().contains("grant_type=client_credentials")
                        ? new LoopbackHttp.Answer(
                            200, "{\"access_token\":\"" + issued.get() + "\",\"expires_in\":3600}")
                        : new LoopbackHttp.Answer(401, "{\"error\":\"invalid_client\"}");
                  }
                  if (request
                          .path()
                          .equals("/api/2.0/postgres/projects/shop/branches/main/endpoints")
                      && ("Bearer " + issued.get()).equals(request.authorization())) {
                    return new LoopbackHttp.Answer(
                        200,
                        "{\"endpoints\":[{\"status\":{\"endpoint_type\":"
                            + "\"ENDPOINT_TYPE_READ_WRITE\",\"hosts\":{\"host\":\""
                            + pgHost
                            + "\"}}}]}");
                  }
                  return new LoopbackHttp.Answer(404, "{\"error_code\":\"NOT_FOUND\"}");
                });
        CapturedLogs logs = CapturedLogs.capture()) {
      LakebaseSink<Object[]> sink =
          LakebaseSinkBuilder.<Object[]>forSchema(SCHEMA, row -> row)
              .option("endpoint", "shop.main")
              .option("workspacehost", workspace.url())
              .option("credential", "databricks-oauth")
              .option("oauthclientfile", client.toString())
              .option("database", POSTGRES.databaseName())
              .option("user", role)
              .option("dbtable", "oauth_rows")
              .option("upsertkey", "id")
              .option("checkpointLocation", "/tmp/chk")
              .build();
      assertThat(sink.sinkTarget()).startsWith("jdbc:postgresql://" + pgHost + "/");
      try (PostgresBatchWriter writer =
          new PostgresBatchWriter(
              sink.config().endpoint(), sink.statement(), 3, java.time.Duration.ofMillis(10))) {
        writer.write(new Object[][] {{1L, "a"}, {2L, "b"}}, 2);
        execute("ALTER ROLE " + role + " PASSWORD '" + second + "'");
        issued.set(second);
        execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
                + role
                + "'");
        writer.write(new Object[][] {{3L, "c"}, {1L, "a2"}}, 2);
      }
      assertThat(workspace.requests).filteredOn(r -> r.path().equals("/oidc/v1/token")).hasSize(2);
      assertThat(logs.lines()).anyMatch(line -> line.contains("resolved to"));
      messages.addAll(logs.lines());
      messages.add(sink.toString());
      messages.add(sink.config().toString());
      messages.add(
          new String(InstantiationUtil.serializeObject(sink), StandardCharsets.ISO_8859_1));
    }
    assertThat(messages).allSatisfy(m -> assertThat(m).doesNotContain(first, second, clientSecret));
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM oauth_rows ORDER BY id")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getLong(1) + "=" + rs.getString(2));
      }
      assertThat(rows).containsExactly("1=a2", "2=b", "3=c");
    }
  }

  /**
   * The same rotation inside a running Flink job: a map operator rotates the role's password and
   * cuts the sink's session halfway through; the job finishes without a failure (no restart
   * strategy) and every row is in the table. This is the at-least-once writer's own reconnect; the
   * exactly-once writer fails the task on a lost session and its restart connects afresh through
   * the same credential path.
   */
  @Test
  void aJobKeepsWritingAcrossATokenRotation() throws Exception {
    String role = "stream_app";
    String first = "S1-" + UUID.randomUUID();
    String second = "S2-" + UUID.randomUUID();
    execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + first + "'");
    execute("GRANT ALL ON SCHEMA public TO " + role);
    allowPasswordLogin(role);
    CachingTokens tokens = new CachingTokens(first);
    long rows = 3000;
    LakebaseSink<Long> sink =
        LakebaseSinkBuilder.<Long>forSchema(SCHEMA, id -> new Object[] {id, "v" + id})
            .option("endpoint", POSTGRES.jdbcUrl())
            .option("user", role)
            .option("dbtable", "streamed")
            .option("upsertkey", "id")
            .option("batchsize", "100")
            .option("checkpointLocation", "/tmp/chk")
            .option("deliveryGuarantee", "at-least-once")
            .credentialProvider(tokens)
            .build();
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    env.fromSequence(0, rows - 1)
        .uid("ids")
        .map(
            new RotateAt(
                rows / 2, POSTGRES.jdbcUrl(), POSTGRES.user(), POSTGRES.password(), role, second))
        .uid("rotate")
        .sinkTo(sink)
        .uid("lakebase");
    env.execute("lakebase-token-rotation");
    assertThat(CachingTokens.STORE.get()).isEqualTo(second);
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM streamed")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(rows);
      assertThat(rs.getLong(2)).isEqualTo(rows);
    }
  }

  /** At element {@code at}: rotates the role's password, publishes it, cuts the role's sessions. */
  private static final class RotateAt implements MapFunction<Long, Long> {
    private final long at;
    private final String url;
    private final String admin;
    private final String adminPassword;
    private final String role;
    private final String next;

    RotateAt(long at, String url, String admin, String adminPassword, String role, String next) {
      this.at = at;
      this.url = url;
      this.admin = admin;
      this.adminPassword = adminPassword;
      this.role = role;
      this.next = next;
    }

    @Override
    public Long map(Long id) throws Exception {
      if (id == at) {
        try (Connection c = DriverManager.getConnection(url, admin, adminPassword);
            Statement s = c.createStatement()) {
          s.execute("ALTER ROLE " + role + " PASSWORD '" + next + "'");
          CachingTokens.STORE.set(next);
          s.execute(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
                  + role
                  + "'");
        }
      }
      return id;
    }
  }

  /** Hands out a cached token; {@link #invalidate()} makes it fetch the store's current one. */
  private static final class CachingTokens implements CredentialProvider {
    static final java.util.concurrent.atomic.AtomicReference<String> STORE =
        new java.util.concurrent.atomic.AtomicReference<>();
    private String token;
    int fetches;

    CachingTokens(String initial) {
      STORE.set(initial);
    }

    @Override
    public synchronized String password() {
      if (token == null) {
        token = STORE.get();
        fetches++;
      }
      return token;
    }

    @Override
    public synchronized void invalidate() {
      token = null;
    }

    @Override
    public String source() {
      return "the test's token store";
    }
  }

  private static void allowPasswordLogin(String role) throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      Path hba;
      try (ResultSet rs = s.executeQuery("SHOW hba_file")) {
        rs.next();
        hba = Path.of(rs.getString(1));
      }
      String rules = Files.readString(hba, StandardCharsets.UTF_8);
      Files.writeString(
          hba,
          "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + rules,
          StandardCharsets.UTF_8);
      s.execute("SELECT pg_reload_conf()");
    }
    Thread.sleep(300);
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
