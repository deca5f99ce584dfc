package io.lakestream.testkit.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresExtensionTest {

  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Test
  void insertsUpsertsAndReadsBack() throws Exception {
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner TEXT NOT NULL, balance BIGINT)");
      s.execute("INSERT INTO accounts VALUES (1, 'ana', 10), (2, 'bruno', 20), (3, 'carla', 30)");
    }
    try (Connection c = POSTGRES.dataSource().getConnection();
        PreparedStatement upsert =
            c.prepareStatement(
                "INSERT INTO accounts (id, owner, balance) VALUES (?, ?, ?) "
                    + "ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, balance = EXCLUDED.balance")) {
      upsert.setLong(1, 2);
      upsert.setString(2, "bruno");
      upsert.setLong(3, 25);
      upsert.addBatch();
      upsert.setLong(1, 4);
      upsert.setString(2, "diego");
      upsert.setLong(3, 40);
      upsert.addBatch();
      upsert.executeBatch();
    }

    Map<Long, String> rows = new LinkedHashMap<>();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, owner, balance FROM accounts ORDER BY id")) {
      while (rs.next()) {
        rows.put(rs.getLong(1), rs.getString(2) + ":" + rs.getLong(3));
      }
    }
    assertThat(rows)
        .containsExactly(
            Map.entry(1L, "ana:10"),
            Map.entry(2L, "bruno:25"),
            Map.entry(3L, "carla:30"),
            Map.entry(4L, "diego:40"));
  }

  @Test
  void theDatabaseIsFreshAndOnLoopback() throws Exception {
    assertThat(POSTGRES.jdbcUrl())
        .startsWith("jdbc:postgresql://127.0.0.1:")
        .endsWith("/" + POSTGRES.databaseName());
    assertThat(POSTGRES.databaseName()).startsWith("postgresextensiontest_");
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_database(), version()")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo(POSTGRES.databaseName());
      assertThat(rs.getString(2)).startsWith("PostgreSQL ");
    }
  }

  @Test
  void anExternalServerGivenByEnvironmentIsUsedAndNotStopped() throws Exception {
    PostgresServer embedded = POSTGRES.server();
    Map<String, String> environment =
        Map.of(
            PostgresServer.URL_VARIABLE, embedded.jdbcUrl() + "?ApplicationName=testkit",
            PostgresServer.USER_VARIABLE, embedded.user(),
            PostgresServer.PASSWORD_VARIABLE, embedded.password());
    String databaseName;
    try (PostgresServer external = PostgresServer.start(environment::get);
        PostgresDatabase database = external.createDatabase("External Test")) {
      assertThat(external.isEmbedded()).isFalse();
      databaseName = database.name();
      assertThat(databaseName).startsWith("external_test_");
      assertThat(database.jdbcUrl()).endsWith("/" + databaseName + "?ApplicationName=testkit");
      try (Connection c = database.connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT current_database()")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo(databaseName);
      }
    }
    // the database is dropped, the server still runs
    try (Connection c = embedded.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_database WHERE datname = '" + databaseName + "'")) {
      rs.next();
      assertThat(rs.getLong(1)).isZero();
    }
  }
}
