package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.connect.EndpointResolver;
import io.lakestream.connectors.lakebase.connect.LakebaseEndpointId;
import java.io.IOException;
import java.io.Serializable;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the sink connects: a JDBC URL without credentials (or a Lakebase endpoint id resolved to
 * one on first use), the user, and a {@link CredentialProvider} asked on every {@link #connect()}.
 * The password is passed as a connection property, never in the URL, and {@link #toString()} shows
 * only the URL (or id) and the user.
 *
 * <p>A connection the server refuses for authentication (SQLState 28P01 or 28000), as after a token
 * rotation, is opened once more with a fresh credential ({@link CredentialProvider#invalidate()});
 * a second refusal is a {@link LakebaseSinkException} of class {@link
 * LakebaseSinkException#AUTHENTICATION_FAILED} naming where the credential comes from.
 */
@Internal
public final class PostgresEndpoint implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(PostgresEndpoint.class);
  private static final String PREFIX = "jdbc:postgresql://";

  private final LakebaseEndpointId lakebaseId;
  private final EndpointResolver resolver;
  private final String database;
  private final String user;
  private final CredentialProvider credentials;
  private volatile String jdbcUrl;

  private PostgresEndpoint(
      String jdbcUrl,
      LakebaseEndpointId lakebaseId,
      EndpointResolver resolver,
      String database,
      String user,
      CredentialProvider credentials) {
    this.jdbcUrl = jdbcUrl;
    this.lakebaseId = lakebaseId;
    this.resolver = resolver;
    this.database = database;
    this.user = user;
    this.credentials = credentials;
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
      CredentialProvider password) {
    return resolve(endpoint, database, defaultDatabase, user, password, null);
  }

  /**
   * As {@link #resolve(String, String, String, String, CredentialProvider)}; with a {@code
   * resolver}, an endpoint of the form {@code <project-id>.<branch-id>[.<endpoint-id>]} is a
   * Lakebase endpoint id whose host the resolver finds on first {@link #connect()}.
   */
  public static PostgresEndpoint resolve(
      String endpoint,
      String database,
      String defaultDatabase,
      String user,
      CredentialProvider password,
      EndpointResolver resolver) {
    Objects.requireNonNull(password, "password");
    String trimmed = endpoint.trim();
    if (resolver != null) {
      var id = LakebaseEndpointId.parse(trimmed);
      if (id.isPresent()) {
        String db = database != null ? database : defaultDatabase;
        return new PostgresEndpoint(null, id.get(), resolver, db, user, password);
      }
    }
    if (trimmed.contains("@")) {
      // user:password@host: never echo it
      throw invalid(
          "the endpoint must not carry credentials (user@ or user:password@); give the host and"
              + " use the options user and password/passwordfile (or a CredentialProvider)");
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
                + " and password/passwordfile (or a CredentialProvider), which are never put in a"
                + " URL");
      }
    } else if (trimmed.contains("/") || trimmed.contains("?")) {
      throw invalid(
          "'"
              + trimmed
              + "' is neither host[:port], a jdbc:postgresql:// URL, nor a Lakebase endpoint id"
              + " <project-id>.<branch-id>[.<endpoint-id>]");
    } else {
      hosts = trimmed;
    }
    if (hosts.isEmpty()) {
      throw invalid("'" + trimmed + "' names no host");
    }
    String db = database != null ? database : urlDatabase != null ? urlDatabase : defaultDatabase;
    return new PostgresEndpoint(PREFIX + hosts + "/" + db + params, null, null, db, user, password);
  }

  /**
   * The host and port (5432 when not given) of option {@code endpoint} given as a host or a URL,
   * for credentials signed for one host (RDS IAM).
   *
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) for several hosts
   */
  public static HostPort hostPort(String endpoint) {
    String hosts = resolve(endpoint, null, "x", "x", PasswordProvider.of(null)).hostList();
    if (hosts.contains(",")) {
      throw invalid("'" + hosts + "' names several hosts; give one");
    }
    int colon = hosts.lastIndexOf(':');
    if (colon < 0 || hosts.endsWith("]")) {
      return new HostPort(hosts, 5432);
    }
    try {
      return new HostPort(hosts.substring(0, colon), Integer.parseInt(hosts.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw invalid("'" + hosts + "' has a port that is not a number");
    }
  }

  /**
   * A host and a port.
   *
   * @param host the host name
   * @param port the port
   */
  public record HostPort(String host, int port) {}

  private String hostList() {
    String rest = jdbcUrl.substring(PREFIX.length());
    return rest.substring(0, rest.indexOf('/'));
  }

  /**
   * The JDBC URL (no credentials); for a Lakebase endpoint id not resolved yet, {@code
   * lakebase:<id>/<database>}.
   */
  public String jdbcUrl() {
    String url = jdbcUrl;
    return url != null ? url : "lakebase:" + lakebaseId + "/" + database;
  }

  public String user() {
    return user;
  }

  /** Where the password comes from. */
  public CredentialProvider credentials() {
    return credentials;
  }

  /**
   * Opens a connection, asking the credential provider for the password now; a refused password is
   * asked for again once (see the class comment).
   *
   * @throws SQLException as the driver reports it (pgjdbc never puts the password in messages)
   * @throws IOException if the credential provider or the endpoint resolver fails transiently
   * @throws LakebaseSinkException if the credential is refused twice, or an endpoint that looks
   *     like a Lakebase endpoint id is not a known host and no resolver is configured
   */
  public Connection connect() throws SQLException, IOException {
    String url = url();
    try {
      return open(url);
    } catch (SQLException refused) {
      if (!isAuthenticationFailure(refused)) {
        throw unknownHost(refused);
      }
      LOG.info(
          "{} refused the credential for user {} ({}); reconnecting once with a fresh one",
          url,
          user,
          refused.getSQLState());
      credentials.invalidate();
      try {
        return open(url);
      } catch (SQLException again) {
        if (!isAuthenticationFailure(again)) {
          throw again;
        }
        throw new LakebaseSinkException(
            LakebaseSinkException.AUTHENTICATION_FAILED,
            "authentication as user "
                + user
                + " at "
                + url
                + " failed twice, the second time with a freshly fetched credential: "
                + again.getMessage()
                + " [SQLState "
                + again.getSQLState()
                + "]. Check option user and "
                + credentials.source()
                + ".",
            again);
      }
    }
  }

  /** Whether the server refused the login: invalid password (28P01) or authorization (28000). */
  public static boolean isAuthenticationFailure(SQLException error) {
    for (SQLException e = error; e != null; e = e.getNextException()) {
      String state = e.getSQLState();
      if ("28P01".equals(state) || "28000".equals(state)) {
        return true;
      }
    }
    return false;
  }

  private Connection open(String url) throws SQLException, IOException {
    Properties properties = new Properties();
    properties.setProperty("user", user);
    String secret = credentials.password();
    if (secret != null) {
      properties.setProperty("password", secret);
    }
    properties.setProperty("reWriteBatchedInserts", "true");
    properties.setProperty("ApplicationName", "lakestream-lakebase-sink");
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("connectTimeout", "10");
    return DriverManager.getConnection(url, properties);
  }

  /** The JDBC URL, resolving a Lakebase endpoint id on first use. */
  private String url() throws IOException {
    String url = jdbcUrl;
    if (url == null) {
      String host = resolver.resolve(lakebaseId);
      url = PREFIX + host + "/" + database;
      LOG.info("Lakebase endpoint {} resolved to {}", lakebaseId, url);
      jdbcUrl = url;
    }
    return url;
  }

  /** A host that does not resolve but looks like an endpoint id: say to set workspacehost. */
  private SQLException unknownHost(SQLException error) {
    boolean unknown = false;
    for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
      unknown |= t instanceof UnknownHostException;
    }
    String host = jdbcUrl == null ? null : hostList();
    if (unknown && host != null && LakebaseEndpointId.parse(host).isPresent()) {
      throw new LakebaseSinkException(
          LakebaseSinkException.INVALID_OPTIONS,
          "option endpoint '"
              + host
              + "' is not a host name that resolves. If it is a Lakebase endpoint id"
              + " (<project-id>.<branch-id>[.<endpoint-id>]), set option workspacehost to the"
              + " Databricks workspace URL so the sink asks the workspace for its host.",
          error);
    }
    return error;
  }

  @Override
  public String toString() {
    return jdbcUrl() + " as " + user;
  }

  private static LakebaseSinkException invalid(String why) {
    return new LakebaseSinkException(
        LakebaseSinkException.INVALID_OPTIONS, "option endpoint: " + why);
  }
}
