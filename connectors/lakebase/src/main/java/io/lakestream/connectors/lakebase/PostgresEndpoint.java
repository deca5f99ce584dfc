package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * Where the sink connects: a JDBC URL without credentials, the user, and a {@link PasswordProvider}
 * asked on every {@link #connect()}. The password is passed as a connection property, never in the
 * URL, and {@link #toString()} shows only the URL and the user.
 */
@Internal
public final class PostgresEndpoint implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final String PREFIX = "jdbc:postgresql://";

  private final String jdbcUrl;
  private final String user;
  private final PasswordProvider password;

  private PostgresEndpoint(String jdbcUrl, String user, PasswordProvider password) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
  }

  /**
   * Resolves option {@code endpoint}: {@code host}, {@code host:port}, or a full {@code
   * jdbc:postgresql://host[:port][/database][?parameters]} URL. The database is {@code database}
   * when given, else the URL's, else {@code defaultDatabase}.
   *
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) if the endpoint
   *     is malformed or its URL carries a password or user
   */
  public static PostgresEndpoint resolve(
      String endpoint,
      String database,
      String defaultDatabase,
      String user,
      PasswordProvider password) {
    Objects.requireNonNull(password, "password");
    String trimmed = endpoint.trim();
    if (trimmed.contains("@")) {
      // user:password@host: never echo it
      throw invalid(
          "the endpoint must not carry credentials (user@ or user:password@); give the host and"
              + " use the options user and password/passwordfile (or a PasswordProvider)");
    }
    String hosts;
    String urlDatabase = null;
    String params = "";
    if (trimmed.startsWith(PREFIX)) {
      String rest = trimmed.substring(PREFIX.length());
      int query = rest.indexOf('?');
      if (query >= 0) {
        params = rest.substring(query);
        rest = rest.substring(0, query);
      }
      int slash = rest.indexOf('/');
      hosts = slash < 0 ? rest : rest.substring(0, slash);
      if (slash >= 0 && slash < rest.length() - 1) {
        urlDatabase = rest.substring(slash + 1);
      }
      String lower = params.toLowerCase(Locale.ROOT);
      if (lower.contains("password=") || lower.contains("user=")) {
        throw invalid(
            "the endpoint URL must not carry user or password parameters; use the options user"
                + " and password/passwordfile (or a PasswordProvider), which are never put in a"
                + " URL");
      }
    } else if (trimmed.contains("/") || trimmed.contains("?")) {
      throw invalid(
          "'"
              + trimmed
              + "' is neither host[:port] nor a jdbc:postgresql:// URL (Lakebase endpoint ids"
              + " project.branch.endpoint are not resolved here: give the endpoint's host name)");
    } else {
      hosts = trimmed;
    }
    if (hosts.isEmpty()) {
      throw invalid("'" + trimmed + "' names no host");
    }
    String db = database != null ? database : urlDatabase != null ? urlDatabase : defaultDatabase;
    return new PostgresEndpoint(PREFIX + hosts + "/" + db + params, user, password);
  }

  /** The JDBC URL (no credentials). */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  public String user() {
    return user;
  }

  /**
   * Opens a connection, asking the password provider for the password now.
   *
   * @throws SQLException as the driver reports it (pgjdbc never puts the password in messages)
   * @throws IOException if the password provider fails
   */
  public Connection connect() throws SQLException, IOException {
    Properties properties = new Properties();
    properties.setProperty("user", user);
    String secret = password.password();
    if (secret != null) {
      properties.setProperty("password", secret);
    }
    properties.setProperty("reWriteBatchedInserts", "true");
    properties.setProperty("ApplicationName", "lakestream-lakebase-sink");
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("connectTimeout", "10");
    return DriverManager.getConnection(jdbcUrl, properties);
  }

  @Override
  public String toString() {
    return jdbcUrl + " as " + user;
  }

  private static LakebaseSinkException invalid(String why) {
    return new LakebaseSinkException(
        LakebaseSinkException.INVALID_OPTIONS, "option endpoint: " + why);
  }
}
