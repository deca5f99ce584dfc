package io.lakestream.testkit.postgres;

import io.lakestream.testkit.ServiceExtension;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that gives the tests of a class ({@code static} field) or each test (instance
 * field) a fresh PostgreSQL database: on an embedded server it starts, or on the server named by
 * {@value PostgresServer#URL_VARIABLE}.
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();
 *
 * @Test void upserts() throws SQLException {
 *   try (Connection c = POSTGRES.connect()) { ... }
 *   sinkOptions.put("endpoint", POSTGRES.jdbcUrl());
 * }
 * }</pre>
 *
 * <p>Afterwards the database is dropped and an embedded server stopped, whether the tests pass or
 * not. See {@link ServiceExtension} for the life cycle and {@link PostgresServer} for failures.
 */
public final class PostgresExtension extends ServiceExtension<PostgresDatabase> {

  /** Creates the extension; the server starts when JUnit calls it. */
  public PostgresExtension() {}

  @Override
  protected PostgresDatabase start(ExtensionContext context) {
    PostgresServer server = PostgresServer.start();
    try {
      String prefix = context.getTestClass().map(Class::getSimpleName).orElse("test");
      return server.createDatabase(prefix);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  @Override
  protected void stop(PostgresDatabase database) {
    try {
      database.close();
    } finally {
      database.server().close();
    }
  }

  /** The database of the running tests. */
  public PostgresDatabase database() {
    return service();
  }

  /** The server the database lives on. */
  public PostgresServer server() {
    return service().server();
  }

  /** See {@link PostgresDatabase#jdbcUrl()}. */
  public String jdbcUrl() {
    return service().jdbcUrl();
  }

  /** See {@link PostgresDatabase#name()}. */
  public String databaseName() {
    return service().name();
  }

  /** See {@link PostgresDatabase#user()}. */
  public String user() {
    return service().user();
  }

  /** See {@link PostgresDatabase#password()}. */
  public String password() {
    return service().password();
  }

  /** See {@link PostgresDatabase#connect()}. */
  public Connection connect() throws SQLException {
    return service().connect();
  }

  /** See {@link PostgresDatabase#dataSource()}. */
  public DataSource dataSource() {
    return service().dataSource();
  }
}
