package io.lakestream.testkit.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A database created for tests on a {@link PostgresServer}; {@link #close()} drops it.
 *
 * <p>Failures: the JDBC helpers throw {@link SQLException} as the driver reports it; {@link
 * #close()} throws {@link IllegalStateException} if the database cannot be dropped.
 */
public final class PostgresDatabase implements AutoCloseable {

  private final PostgresServer server;
  private final String name;
  private final String jdbcUrl;
  private boolean closed;

  PostgresDatabase(PostgresServer server, String name, String jdbcUrl) {
    this.server = server;
    this.name = name;
    this.jdbcUrl = jdbcUrl;
  }

  /** The server the database lives on. */
  public PostgresServer server() {
    return server;
  }

  /** The database name. */
  public String name() {
    return name;
  }

  /** JDBC URL of this database. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** User name (the server's). */
  public String user() {
    return server.user();
  }

  /** Password (the server's). */
  public String password() {
    return server.password();
  }

  /**
   * A new connection to this database; the caller closes it.
   *
   * @throws SQLException if the driver cannot connect
   */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, server.user(), server.password());
  }

  /** A data source for this database (no pooling). */
  public DataSource dataSource() {
    return PostgresServer.dataSource(jdbcUrl, server.user(), server.password());
  }

  /**
   * Drops the database, ending its open sessions. Idempotent.
   *
   * @throws IllegalStateException if it cannot be dropped
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      server.dropDatabase(name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop database " + name + ": " + e, e);
    }
  }

  @Override
  public String toString() {
    return "PostgresDatabase[" + jdbcUrl + "]";
  }
}
