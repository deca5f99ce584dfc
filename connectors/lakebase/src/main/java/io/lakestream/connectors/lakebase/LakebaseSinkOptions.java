package io.lakestream.connectors.lakebase;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The options of the Lakebase sink, named as in Databricks' Lakebase sink (keys are matched
 * case-insensitively, as Spark does). {@link #parse(Map, PasswordProvider, String)} validates them
 * all before any connection: an unknown option, a missing required one or a bad value fails with
 * {@link LakebaseSinkException#INVALID_OPTIONS}, naming the option and listing the valid ones. The
 * message never contains a password.
 */
public final class LakebaseSinkOptions {

  /** Default database of a Lakebase instance. */
  public static final String DEFAULT_DATABASE = "databricks_postgres";

  public static final ConfigOption<String> DBTABLE =
      key("dbtable")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Required. Target table as schema.table (schema defaults to public); simple"
                  + " identifiers only (letter or underscore, then letters, digits, underscores).");

  public static final ConfigOption<String> ENDPOINT =
      key("endpoint")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Required. The PostgreSQL/Lakebase host (host or host:port) or a full"
                  + " jdbc:postgresql:// URL without credentials.");

  public static final ConfigOption<String> DATABASE =
      key("database")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Optional. The database; defaults to the endpoint URL's, else "
                  + DEFAULT_DATABASE
                  + ".");

  public static final ConfigOption<String> USER =
      key("user").stringType().noDefaultValue().withDescription("Required. The database user.");

  public static final ConfigOption<String> PASSWORD =
      key("password")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Optional. A fixed password. Prefer passwordfile or a PasswordProvider for"
                  + " short-lived tokens.");

  public static final ConfigOption<String> PASSWORD_FILE =
      key("passwordfile")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Optional. A file whose first line is the password, read again on every"
                  + " (re)connect (for OAuth tokens refreshed in place).");

  public static final ConfigOption<String> UPSERT_KEY =
      key("upsertkey")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Optional. Comma-separated key columns, e.g. id or user_id,event_type; must equal"
                  + " the table's primary key. Inferred from the primary key if omitted; without"
                  + " any key the sink inserts.");

  public static final ConfigOption<Integer> BATCH_SIZE =
      key("batchsize")
          .intType()
          .defaultValue(1000)
          .withDescription("Optional. Maximum rows per database transaction.");

  public static final ConfigOption<Duration> BATCH_INTERVAL =
      key("batchinterval")
          .durationType()
          .defaultValue(Duration.ofMillis(100))
          .withDescription(
              "Optional. Maximum time a row waits in the buffer before a flush, e.g. \"50"
                  + " milliseconds\"; 0 flushes every row. Default 100 ms, 30 ms in a query"
                  + " with the realTime trigger.");

  /**
   * The batch interval when option batchinterval is not given and the query runs with the realTime
   * trigger. Measured at 5,000 records/s on a loaded 2-core machine (BENCHMARKS.md, lakebase): 100
   * ms puts ~50 ms of buffer wait on every row (p50 67-86 ms); 10 ms has the lowest median but
   * commits ~3x as often, and since flushes run in the task thread, stalls held back the source
   * (p99 0.4-0.8 s in four of five runs); 30 ms (~75 rows per transaction per task) had a p99 of
   * 151-186 ms in all three runs and a p50 of 26-33 ms.
   */
  public static final Duration REAL_TIME_BATCH_INTERVAL = Duration.ofMillis(30);

  public static final ConfigOption<String> CHECKPOINT_LOCATION =
      key("checkpointLocation")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Required. The query's checkpoint location (given here or by the query context).");

  public static final ConfigOption<Integer> MAX_RETRIES =
      key("maxretries")
          .intType()
          .defaultValue(10)
          .withDescription(
              "Optional. Retries of a batch after a transient error (connection loss, deadlock,"
                  + " serialization failure, too many connections, admin shutdown) before the"
                  + " query fails.");

  public static final ConfigOption<Duration> RETRY_BACKOFF =
      key("retrybackoff")
          .durationType()
          .defaultValue(Duration.ofMillis(100))
          .withDescription(
              "Optional. Wait before the first retry; it doubles on every retry, up to 5 s (or"
                  + " this value when larger).");

  public static final ConfigOption<Integer> TASKS_PER_CONNECTION =
      key("tasksPerConnection")
          .intType()
          .defaultValue(1)
          .withDescription(
              "Optional. How many sink tasks of one TaskManager share a database connection"
                  + " (their flushes then take turns). 1, the default, gives each task its own"
                  + " connection; raise it when the database allows few connections.");

  /** Every option, by lower-cased key. */
  public static final List<ConfigOption<?>> ALL =
      List.of(
          DBTABLE,
          ENDPOINT,
          DATABASE,
          USER,
          PASSWORD,
          PASSWORD_FILE,
          UPSERT_KEY,
          BATCH_SIZE,
          BATCH_INTERVAL,
          CHECKPOINT_LOCATION,
          MAX_RETRIES,
          RETRY_BACKOFF,
          TASKS_PER_CONNECTION);

  private LakebaseSinkOptions() {}

  /** The valid option keys, sorted. */
  public static List<String> validKeys() {
    return ALL.stream().map(ConfigOption::key).sorted().collect(Collectors.toList());
  }

  /**
   * Validates {@code options} and resolves them.
   *
   * @param passwordProvider a provider set in code, or null (then options password/passwordfile)
   * @param queryCheckpointLocation the query's checkpoint location, or null
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) naming the option
   */
  public static LakebaseSinkConfig parse(
      Map<String, String> options,
      PasswordProvider passwordProvider,
      String queryCheckpointLocation) {
    return parse(options, passwordProvider, queryCheckpointLocation, false);
  }

  /**
   * Validates {@code options} and resolves them for a query that may run in realTime mode, where
   * option batchinterval defaults to {@link #REAL_TIME_BATCH_INTERVAL}.
   *
   * @param realTime whether the query runs with the realTime trigger
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) naming the option
   */
  public static LakebaseSinkConfig parse(
      Map<String, String> options,
      PasswordProvider passwordProvider,
      String queryCheckpointLocation,
      boolean realTime) {
    Map<String, String> byKey = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, String> entry : options.entrySet()) {
      Optional<ConfigOption<?>> option = find(entry.getKey());
      if (option.isEmpty()) {
        unknown.add(entry.getKey());
        continue;
      }
      String previous = byKey.put(option.get().key(), entry.getValue());
      if (previous != null) {
        throw invalid("option " + option.get().key() + " is given twice (keys ignore case)");
      }
    }
    if (!unknown.isEmpty()) {
      throw invalid(
          "unrecognized option(s) "
              + new TreeSet<>(unknown)
              + "; valid options are "
              + validKeys());
    }
    Configuration conf = Configuration.fromMap(byKey);
    String dbtable = required(conf, DBTABLE);
    PostgresTableName table = PostgresIdentifiers.parseTable(dbtable);
    String endpoint = required(conf, ENDPOINT);
    String user = required(conf, USER);
    String database = conf.get(DATABASE);
    if (database != null && !PostgresIdentifiers.isSimple(database)) {
      throw invalid("option database '" + database + "' is not a simple identifier");
    }
    int secrets =
        (passwordProvider != null ? 1 : 0)
            + (conf.get(PASSWORD) != null ? 1 : 0)
            + (conf.get(PASSWORD_FILE) != null ? 1 : 0);
    if (secrets > 1) {
      throw invalid(
          "give the password one way only: option password, option passwordfile, or a"
              + " PasswordProvider");
    }
    PasswordProvider password =
        passwordProvider != null
            ? passwordProvider
            : conf.get(PASSWORD_FILE) != null
                ? PasswordProvider.fromFile(conf.get(PASSWORD_FILE))
                : PasswordProvider.of(conf.get(PASSWORD));
    PostgresEndpoint resolved =
        PostgresEndpoint.resolve(endpoint, database, DEFAULT_DATABASE, user, password);

    List<String> upsertKey = null;
    String keyText = conf.get(UPSERT_KEY);
    if (keyText != null) {
      upsertKey = Arrays.stream(keyText.split(",", -1)).map(String::trim).toList();
      if (upsertKey.stream().anyMatch(String::isEmpty)) {
        throw new LakebaseSinkException(
            LakebaseSinkException.INVALID_UPSERT_KEY,
            "option upsertkey '"
                + keyText
                + "' has an empty column name; give comma-separated column names, e.g."
                + " user_id,event_type");
      }
      if (new TreeSet<>(upsertKey).size() != upsertKey.size()) {
        throw new LakebaseSinkException(
            LakebaseSinkException.INVALID_UPSERT_KEY,
            "option upsertkey '" + keyText + "' names a column twice");
      }
    }
    int batchSize = value(conf, BATCH_SIZE);
    if (batchSize < 1) {
      throw invalid("option batchsize must be >= 1, was " + batchSize);
    }
    Duration interval =
        realTime && !conf.contains(BATCH_INTERVAL)
            ? REAL_TIME_BATCH_INTERVAL
            : value(conf, BATCH_INTERVAL);
    if (interval.isNegative()) {
      throw invalid("option batchinterval must not be negative, was " + interval);
    }
    String checkpoint = conf.get(CHECKPOINT_LOCATION);
    if (checkpoint == null || checkpoint.isBlank()) {
      checkpoint = queryCheckpointLocation;
    } else if (queryCheckpointLocation != null
        && !stripSlash(checkpoint).equals(stripSlash(queryCheckpointLocation))) {
      throw invalid(
          "option checkpointLocation '"
              + checkpoint
              + "' differs from the query's checkpoint location '"
              + queryCheckpointLocation
              + "'; leave it out or give the same one");
    }
    if (checkpoint == null || checkpoint.isBlank()) {
      throw invalid(
          "option checkpointLocation is required: a directory unique to this query (or run the"
              + " sink inside a query, whose checkpoint location it uses)");
    }
    int maxRetries = value(conf, MAX_RETRIES);
    if (maxRetries < 0) {
      throw invalid("option maxretries must be >= 0, was " + maxRetries);
    }
    Duration backoff = value(conf, RETRY_BACKOFF);
    if (backoff.isNegative()) {
      throw invalid("option retrybackoff must not be negative, was " + backoff);
    }
    int tasksPerConnection = value(conf, TASKS_PER_CONNECTION);
    if (tasksPerConnection < 1) {
      throw invalid("option tasksPerConnection must be >= 1, was " + tasksPerConnection);
    }
    return new LakebaseSinkConfig(
        resolved,
        table,
        upsertKey == null ? List.of() : upsertKey,
        batchSize,
        interval,
        checkpoint,
        maxRetries,
        backoff,
        tasksPerConnection);
  }

  private static Optional<ConfigOption<?>> find(String key) {
    String lower = key.trim().toLowerCase(Locale.ROOT);
    return ALL.stream().filter(o -> o.key().toLowerCase(Locale.ROOT).equals(lower)).findFirst();
  }

  private static String required(Configuration conf, ConfigOption<String> option) {
    String value = conf.get(option);
    if (value == null || value.isBlank()) {
      throw invalid("option " + option.key() + " is required: " + option.description());
    }
    return value;
  }

  private static <V> V value(Configuration conf, ConfigOption<V> option) {
    try {
      return conf.get(option);
    } catch (IllegalArgumentException e) {
      throw invalid(
          "option "
              + option.key()
              + " has an invalid value '"
              + conf.toMap().get(option.key())
              + "': "
              + option.description());
    }
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static LakebaseSinkException invalid(String message) {
    return new LakebaseSinkException(LakebaseSinkException.INVALID_OPTIONS, message);
  }
}
