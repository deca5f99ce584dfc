package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * A validated JDBC read (made by {@link JdbcSourceOptions#parse}): where to connect, what to read,
 * its partitions. Serializable without any secret: the password is fetched from its {@link
 * JdbcPassword} at every {@link #connect()}. {@link #toString()} and every message name the
 * relation and the options to check, never the password.
 *
 * @param url the JDBC URL (without credentials)
 * @param dbtable the table, or null when {@code query} is given
 * @param query the query, or null when {@code dbtable} is given
 * @param partitionColumn the partition column, or null for an unpartitioned read
 * @param splits the partitions, at least one
 * @param fetchSize rows per round trip
 * @param user the database user, or null
 * @param credentials the password's source, or null for none
 */
@PublicEvolving
public record JdbcSourceConfig(
    String url,
    String dbtable,
    String query,
    String partitionColumn,
    List<JdbcPartitionSplit> splits,
    int fetchSize,
    String user,
    JdbcPassword credentials)
    implements Serializable {

  public JdbcSourceConfig {
    splits = List.copyOf(splits);
  }

  /** What a FROM clause reads: the table, or the query as a subquery. */
  public String relation() {
    return dbtable != null ? dbtable : "(" + query + ") lakestream_jdbc_query";
  }

  /** The statement reading {@code split}'s rows. */
  public String select(JdbcPartitionSplit split) {
    String condition = partitionColumn == null ? null : split.condition(partitionColumn);
    return "SELECT * FROM " + relation() + (condition == null ? "" : " WHERE " + condition);
  }

  /** What is read, for messages and logs: {@code table orders} or {@code query}. */
  public String describe() {
    return dbtable != null ? "table " + dbtable : "the query of option query";
  }

  /**
   * A new connection, autocommit off (PostgreSQL then streams results in {@code fetchSize} rows)
   * and read-only.
   *
   * @throws LakestreamException {@link JdbcErrorClass#JDBC_SOURCE_CONNECTION_FAILED} naming the
   *     options to check, or {@link JdbcErrorClass#JDBC_SOURCE_CREDENTIAL_MISSING}
   */
  public Connection connect() {
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (credentials != null) {
      properties.setProperty("password", password());
    }
    try {
      Connection connection = driver().connect(url, properties);
      connection.setAutoCommit(false);
      connection.setReadOnly(true);
      return connection;
    } catch (SQLException e) {
      throw new LakestreamException(
          JdbcErrorClass.JDBC_SOURCE_CONNECTION_FAILED,
          "Cannot connect to read "
              + describe()
              + ": "
              + e.getMessage()
              + " (SQLState "
              + e.getSQLState()
              + "). Check options url and user"
              + (credentials == null ? "" : " and " + credentials.source()),
          e);
    }
  }

  private String password() {
    String password;
    try {
      password = credentials.password();
    } catch (IOException e) {
      throw new LakestreamException(
          JdbcErrorClass.JDBC_SOURCE_CREDENTIAL_MISSING,
          "Cannot read the password from " + credentials.source() + ": " + e.getMessage(),
          e);
    }
    if (password == null || password.isEmpty()) {
      throw new LakestreamException(
          JdbcErrorClass.JDBC_SOURCE_CREDENTIAL_MISSING,
          "No password in " + credentials.source() + ": set it, or drop the option");
    }
    return password;
  }

  /** The driver for the URL, found through the context class loader (Flink's user code). */
  private Driver driver() throws SQLException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
      if (driver.acceptsURL(url)) {
        return driver;
      }
    }
    return DriverManager.getDriver(url);
  }

  @Override
  public String toString() {
    return "JdbcSourceConfig[" + describe() + ", " + splits.size() + " partitions]";
  }
}
