package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.connect.DatabricksEndpointResolver;
import io.lakestream.connectors.lakebase.connect.DatabricksOAuthCredentials;
import io.lakestream.connectors.lakebase.connect.EndpointResolver;
import io.lakestream.connectors.lakebase.connect.RdsIamCredentials;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The options of the Lakebase sink, named as in Databricks' Lakebase sink, declared in {@link
 * #CATALOG} (keys ignore case, as Spark's do; see {@code docs/options/lakebase-sink.md}). {@link
 * #parse(Map, CredentialProvider, String)} validates them all before any connection: an unknown
 * option (the message names the closest valid one and lists them all), a missing required one or a
 * bad value fails with {@link LakebaseSinkException#INVALID_OPTIONS}. The message never contains a
 * password.
 */
@PublicEvolving
public final class LakebaseSinkOptions {

  /** Default database of a Lakebase instance. */
  public static final String DEFAULT_DATABASE = "databricks_postgres";

  public static final Option<String> DBTABLE =
      Option.key("dbtable")
          .stringType()
          .required()
          .withDescription(
              "Target table as schema.table (schema defaults to public); simple"
                  + " identifiers only (letter or underscore, then letters, digits, underscores).");

  public static final Option<String> ENDPOINT =
      Option.key("endpoint")
          .stringType()
          .required()
          .withDescription(
              "The PostgreSQL/Lakebase host (host or host:port), a full jdbc:postgresql:// URL"
                  + " without credentials, or a Lakebase endpoint id"
                  + " <project-id>.<branch-id>[.<endpoint-id>] (needs workspacehost, which resolves"
                  + " it to the endpoint's host; without an endpoint id, the branch's read-write"
                  + " endpoint).");

  public static final Option<String> DATABASE =
      Option.key("database")
          .stringType()
          .noDefaultValue()
          .check(
              PostgresIdentifiers::isSimple,
              "be a simple identifier (letter or underscore, then letters, digits, underscores)")
          .withDescription(
              "The database; defaults to the endpoint URL's, else " + DEFAULT_DATABASE + ".");

  public static final Option<String> USER =
      Option.key("user").stringType().required().withDescription("The database user.");

  public static final Option<String> PASSWORD =
      Option.key("password")
          .stringType()
          .noDefaultValue()
          .secret()
          .withDescription(
              "A fixed password. For short-lived tokens use passwordfile, option credential"
                  + " or a CredentialProvider.");

  public static final Option<String> PASSWORD_FILE =
      Option.key("passwordfile")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A file whose first line is the password, read again on every"
                  + " (re)connect (for OAuth tokens refreshed in place).");

  public static final Option<String> UPSERT_KEY =
      Option.key("upsertkey")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Comma-separated key columns, e.g. id or user_id,event_type; must equal"
                  + " the table's primary key. Inferred from the primary key if omitted; without"
                  + " any key the sink inserts.");

  public static final Option<Integer> BATCH_SIZE =
      Option.key("batchsize")
          .intType()
          .defaultValue(1000)
          .atLeast(1)
          .withDescription("Maximum rows per database transaction.");

  public static final Option<Duration> BATCH_INTERVAL =
      Option.key("batchinterval")
          .durationType()
          .defaultValue(Duration.ofMillis(100))
          .withDefaultText("100 ms; 30 ms with the realTime trigger")
          .notNegative()
          .withDescription(
              "Maximum time a row waits in the buffer before a flush, e.g. \"50"
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

  public static final Option<String> CHECKPOINT_LOCATION =
      Option.key("checkpointLocation")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The query's checkpoint location; required unless the sink runs in a query, whose"
                  + " checkpoint location it uses (then it must be the same).");

  public static final Option<Integer> MAX_RETRIES =
      Option.key("maxretries")
          .intType()
          .defaultValue(10)
          .atLeast(0)
          .withDescription(
              "Retries of a batch after a transient error (connection loss, deadlock,"
                  + " serialization failure, too many connections, admin shutdown) before the"
                  + " query fails.");

  public static final Option<Duration> RETRY_BACKOFF =
      Option.key("retrybackoff")
          .durationType()
          .defaultValue(Duration.ofMillis(100))
          .notNegative()
          .withDescription(
              "Wait before the first retry; it doubles on every retry, up to 5 s (or"
                  + " this value when larger).");

  public static final Option<Integer> TASKS_PER_CONNECTION =
      Option.key("tasksPerConnection")
          .intType()
          .defaultValue(1)
          .atLeast(1)
          .withDescription(
              "How many sink tasks of one TaskManager share a database connection"
                  + " (their flushes then take turns). 1, the default, gives each task its own"
                  + " connection; raise it when the database allows few connections. Also"
                  + " settable by the Spark conf name"
                  + " spark.databricks.sql.streaming.jdbc.tasksPerConnection, as an option or,"
                  + " in SQL, as a query setting (SET"
                  + " 'spark.databricks.sql.streaming.jdbc.tasksPerConnection' = '2', for every"
                  + " Lakebase table of the script that does not set it). Applies to"
                  + " deliveryGuarantee at-least-once; exactly-once writers each hold their own.")
          .withAliases("spark.databricks.sql.streaming.jdbc.tasksPerConnection");

  // ---- exactly-once mode (issue 23) ----

  /** The value of option deliveryGuarantee for exactly-once epochs. */
  public static final String EXACTLY_ONCE = "exactly-once";

  /** The value of option deliveryGuarantee for the low-latency per-batch path. */
  public static final String AT_LEAST_ONCE = "at-least-once";

  public static final Option<String> DELIVERY_GUARANTEE =
      Option.key("deliveryGuarantee")
          .choiceType(EXACTLY_ONCE, AT_LEAST_ONCE)
          .noDefaultValue()
          .withDefaultText("exactly-once; at-least-once with the realTime trigger")
          .withDescription(
              "exactly-once: an epoch's rows are written into a staging table beside the target"
                  + " (<table>_lakestream_stage) before the checkpoint, and applied to the target"
                  + " in one transaction when the checkpoint completes, which also records the"
                  + " epoch in <schema>.lakestream_lakebase_commits so a replayed epoch is skipped;"
                  + " rows appear once per checkpoint, and tables without a key get each row once."
                  + " at-least-once: rows are written in batches as they come (batchsize,"
                  + " batchinterval); after a failure replayed rows are written again (with a key"
                  + " the table converges; without one rows repeat). Default exactly-once, and"
                  + " at-least-once in a query with the realTime trigger.");

  public static final Option<String> VERSION_COLUMN =
      Option.key("versioncolumn")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A column outside the key whose value grows with each change of a key (e.g. the"
                  + " Kafka offset or the event time): an upsert then only replaces a row whose"
                  + " value is smaller (ON CONFLICT .. DO UPDATE .. WHERE"
                  + " <table>.<column> < EXCLUDED.<column>), so rows replayed after a failure"
                  + " never move a row back to an older value. Needs an upsert key; deletes are"
                  + " not guarded.");

  /** The value of option writeMethod for {@code INSERT .. SELECT FROM UNNEST(arrays)}. */
  public static final String WRITE_UNNEST = "unnest";

  /** The value of option writeMethod for binary {@code COPY} into a staging table. */
  public static final String WRITE_COPY = "copy";

  public static final Option<String> WRITE_METHOD =
      Option.key("writeMethod")
          .choiceType(WRITE_UNNEST, WRITE_COPY)
          .defaultValue(WRITE_UNNEST)
          .withDescription(
              "How a batch travels to PostgreSQL. unnest: one INSERT .. SELECT FROM"
                  + " UNNEST(?::int8[], ..) per batch, one array parameter per column (into the"
                  + " target with ON CONFLICT, or into the exactly-once staging table). copy: the"
                  + " batch is sent by COPY .. FROM STDIN (FORMAT binary), into the exactly-once"
                  + " staging table directly, or, at-least-once, into a session's temporary table"
                  + " (ON COMMIT DELETE ROWS) followed by one INSERT .. SELECT .. ON CONFLICT into"
                  + " the target (needs session-level connections: not behind a pooler in"
                  + " transaction mode). Both need every column to be LONG, INT, DOUBLE, STRING,"
                  + " BOOLEAN or DECIMAL; otherwise batches go as JDBC batches of single-row"
                  + " INSERTs. Results and guarantees are the same; only the speed differs. unnest is"
                  + " the default: staging 1000-row batches by copy took about 1.5x the server CPU"
                  + " of unnest on PostgreSQL 15 and 17, and copy plus the INSERT from the temporary"
                  + " table was slower at-least-once too (BENCHMARKS.md, lakebase-upsert).");

  // ---- Managed credentials (credential providers, Lakebase endpoint ids) ----

  /** Option credential: password (and passwordfile), databricks-oauth, rds-iam. */
  public static final String CREDENTIAL_PASSWORD = "password";

  /** Option credential: Databricks OAuth machine-to-machine tokens. */
  public static final String CREDENTIAL_DATABRICKS_OAUTH = "databricks-oauth";

  /** Option credential: Amazon RDS / Aurora IAM authentication tokens. */
  public static final String CREDENTIAL_RDS_IAM = "rds-iam";

  public static final Option<String> CREDENTIAL =
      Option.key("credential")
          .choiceType(CREDENTIAL_PASSWORD, CREDENTIAL_DATABRICKS_OAUTH, CREDENTIAL_RDS_IAM)
          .defaultValue(CREDENTIAL_PASSWORD)
          .withDescription(
              "Where the password comes from: password (option password or passwordfile, or a"
                  + " CredentialProvider set on the builder); databricks-oauth (a workspace OAuth"
                  + " token from <workspacehost>/oidc/v1/token for a service principal's client id"
                  + " and secret, refreshed before expiry); rds-iam (an Amazon RDS/Aurora IAM"
                  + " token signed with the default AWS credentials, renewed every 10 minutes)."
                  + " A refused credential is fetched afresh once per connection.");

  public static final Option<String> WORKSPACE_HOST =
      Option.key("workspacehost")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Databricks workspace URL, e.g. https://dbc-1234.cloud.databricks.com: its"
                  + " OIDC token endpoint for credential databricks-oauth, and its Postgres API to"
                  + " resolve an endpoint given as <project-id>.<branch-id>[.<endpoint-id>].");

  public static final Option<String> OAUTH_CLIENT_FILE =
      Option.key("oauthclientfile")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "For credential databricks-oauth: a properties file with client_id= and"
                  + " client_secret= of the service principal, read at every token fetch. Default:"
                  + " environment variables DATABRICKS_CLIENT_ID and DATABRICKS_CLIENT_SECRET.");

  public static final Option<String> AWS_REGION =
      Option.key("awsregion")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "For credential rds-iam: the AWS region of the RDS/Aurora instance, e.g."
                  + " eu-west-1. Default: environment variable AWS_REGION.");

  /** The options of managed credentials. */
  public static final List<Option<?>> CREDENTIAL_OPTIONS =
      List.of(CREDENTIAL, WORKSPACE_HOST, OAUTH_CLIENT_FILE, AWS_REGION);

  // ---- end of managed credentials ----

  /** Every option. */
  public static final List<Option<?>> ALL =
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
          TASKS_PER_CONNECTION,
          CREDENTIAL,
          WORKSPACE_HOST,
          OAUTH_CLIENT_FILE,
          AWS_REGION,
          DELIVERY_GUARANTEE,
          VERSION_COLUMN,
          WRITE_METHOD);

  /**
   * Every option of the Lakebase sink; its errors are {@link LakebaseSinkException}s of class
   * {@link LakebaseSinkException#INVALID_OPTIONS}.
   */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("lakebase-sink", "Lakebase sink")
          .summary(
              "Options of `LakebaseSinkBuilder.option(key, value)`, named as in Databricks'"
                  + " Lakebase (JDBC streaming) sink. Every option error has the error class"
                  + " `JDBC_STREAMING_SINK_INVALID_OPTIONS`; a password can also come from a"
                  + " `PasswordProvider` set on the builder.")
          .options(ALL)
          .failures(
              problem ->
                  new LakebaseSinkException(
                      LakebaseSinkException.INVALID_OPTIONS, problem.message()))
          .build();

  private LakebaseSinkOptions() {}

  /** The valid option keys, sorted. */
  public static List<String> validKeys() {
    return List.copyOf(CATALOG.validKeys());
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
      CredentialProvider passwordProvider,
      String queryCheckpointLocation) {
    return parse(options, passwordProvider, queryCheckpointLocation, false);
  }

  /**
   * Validates {@code options} against {@link #CATALOG} and resolves them for a query that may run
   * in realTime mode, where option batchinterval defaults to {@link #REAL_TIME_BATCH_INTERVAL}.
   *
   * @param realTime whether the query runs with the realTime trigger
   * @throws LakebaseSinkException ({@link LakebaseSinkException#INVALID_OPTIONS}) naming the
   *     option, or {@link LakebaseSinkException#INVALID_UPSERT_KEY} for a malformed upsertkey
   */
  public static LakebaseSinkConfig parse(
      Map<String, String> options,
      CredentialProvider passwordProvider,
      String queryCheckpointLocation,
      boolean realTime) {
    return parse(options, passwordProvider, null, queryCheckpointLocation, realTime);
  }

  /**
   * As {@link #parse(Map, CredentialProvider, String, boolean)}, with an endpoint resolver set in
   * code (else option workspacehost gives one) for an endpoint given as a Lakebase endpoint id.
   *
   * @param endpointResolver a resolver set in code, or null
   */
  public static LakebaseSinkConfig parse(
      Map<String, String> options,
      CredentialProvider passwordProvider,
      EndpointResolver endpointResolver,
      String queryCheckpointLocation,
      boolean realTime) {
    OptionValues values = CATALOG.validate(options);
    PostgresTableName table = PostgresIdentifiers.parseTable(values.get(DBTABLE));
    PostgresEndpoint endpoint = endpoint(values, passwordProvider, endpointResolver);
    Duration interval =
        realTime && !values.contains(BATCH_INTERVAL)
            ? REAL_TIME_BATCH_INTERVAL
            : values.get(BATCH_INTERVAL);
    return new LakebaseSinkConfig(
        endpoint,
        table,
        upsertKey(values.get(UPSERT_KEY)),
        values.get(BATCH_SIZE),
        interval,
        checkpointLocation(values.get(CHECKPOINT_LOCATION), queryCheckpointLocation),
        values.get(MAX_RETRIES),
        values.get(RETRY_BACKOFF),
        values.get(TASKS_PER_CONNECTION),
        values.contains(DELIVERY_GUARANTEE)
            ? values.get(DELIVERY_GUARANTEE).equals(EXACTLY_ONCE)
            : !realTime,
        values.get(VERSION_COLUMN),
        values.get(WRITE_METHOD).equals(WRITE_COPY));
  }

  // ---- Managed credentials ----

  /** The endpoint with its credential provider and, for a Lakebase endpoint id, its resolver. */
  private static PostgresEndpoint endpoint(
      OptionValues values, CredentialProvider provider, EndpointResolver resolverInCode) {
    String credential = values.get(CREDENTIAL);
    requireOnlyWith(values, OAUTH_CLIENT_FILE, credential, CREDENTIAL_DATABRICKS_OAUTH);
    requireOnlyWith(values, AWS_REGION, credential, CREDENTIAL_RDS_IAM);
    CredentialProvider credentials =
        switch (credential) {
          case CREDENTIAL_DATABRICKS_OAUTH -> databricksOAuth(values, provider);
          case CREDENTIAL_RDS_IAM -> rdsIam(values, provider);
          default -> password(values, provider);
        };
    EndpointResolver resolver = resolverInCode;
    if (resolver == null && values.contains(WORKSPACE_HOST)) {
      resolver = new DatabricksEndpointResolver(values.get(WORKSPACE_HOST), credentials);
    }
    return PostgresEndpoint.resolve(
        values.get(ENDPOINT),
        values.get(DATABASE),
        DEFAULT_DATABASE,
        values.get(USER),
        credentials,
        resolver);
  }

  private static CredentialProvider password(OptionValues values, CredentialProvider provider) {
    int ways =
        (provider != null ? 1 : 0)
            + (values.contains(PASSWORD) ? 1 : 0)
            + (values.contains(PASSWORD_FILE) ? 1 : 0);
    if (ways > 1) {
      throw CATALOG.conflict(
          "needs the password given one way only: option password, option passwordfile, or a"
              + " CredentialProvider");
    }
    return provider != null
        ? provider
        : values.contains(PASSWORD_FILE)
            ? PasswordProvider.fromFile(values.get(PASSWORD_FILE))
            : PasswordProvider.of(values.get(PASSWORD));
  }

  private static CredentialProvider databricksOAuth(
      OptionValues values, CredentialProvider provider) {
    noPassword(values, provider, CREDENTIAL_DATABRICKS_OAUTH);
    if (!values.contains(WORKSPACE_HOST)) {
      throw CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          WORKSPACE_HOST.key(),
          "option credential=databricks-oauth needs option workspacehost, the workspace URL whose"
              + " /oidc/v1/token endpoint issues the tokens (e.g."
              + " https://dbc-1234.cloud.databricks.com)");
    }
    String file = values.get(OAUTH_CLIENT_FILE);
    if (file == null
        && (System.getenv(DatabricksOAuthCredentials.CLIENT_ID_ENV) == null
            || System.getenv(DatabricksOAuthCredentials.CLIENT_SECRET_ENV) == null)) {
      throw CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          OAUTH_CLIENT_FILE.key(),
          "option credential=databricks-oauth needs the service principal's client id and"
              + " secret: set environment variables "
              + DatabricksOAuthCredentials.CLIENT_ID_ENV
              + " and "
              + DatabricksOAuthCredentials.CLIENT_SECRET_ENV
              + ", or option oauthclientfile (a file with client_id= and client_secret= lines)");
    }
    try {
      return DatabricksOAuthCredentials.of(values.get(WORKSPACE_HOST), file);
    } catch (IllegalArgumentException e) {
      throw CATALOG.invalidValue(WORKSPACE_HOST, values.get(WORKSPACE_HOST), e.getMessage());
    }
  }

  private static CredentialProvider rdsIam(OptionValues values, CredentialProvider provider) {
    noPassword(values, provider, CREDENTIAL_RDS_IAM);
    String region =
        values.contains(AWS_REGION) ? values.get(AWS_REGION) : System.getenv("AWS_REGION");
    if (region == null || region.isBlank()) {
      throw CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          AWS_REGION.key(),
          "option credential=rds-iam needs the instance's AWS region: option awsregion (or"
              + " environment variable AWS_REGION)");
    }
    if (values.contains(WORKSPACE_HOST)) {
      throw CATALOG.conflict(
          "option workspacehost (Lakebase) does not go with credential=rds-iam; give the RDS"
              + " host in option endpoint");
    }
    PostgresEndpoint.HostPort host = PostgresEndpoint.hostPort(values.get(ENDPOINT));
    return RdsIamCredentials.of(host.host(), host.port(), values.get(USER), region.strip());
  }

  private static void noPassword(OptionValues values, CredentialProvider provider, String kind) {
    if (provider != null || values.contains(PASSWORD) || values.contains(PASSWORD_FILE)) {
      throw CATALOG.conflict(
          "option credential="
              + kind
              + " fetches its own tokens; leave out option password, option passwordfile and the"
              + " builder's CredentialProvider (or use credential=password)");
    }
  }

  private static void requireOnlyWith(
      OptionValues values, Option<String> option, String credential, String needed) {
    if (values.contains(option) && !credential.equals(needed)) {
      throw CATALOG.conflict(
          "option "
              + option.key()
              + " is used only with credential="
              + needed
              + ", but credential is "
              + credential);
    }
  }

  // ---- end of managed credentials ----

  /** The columns of option upsertkey, or empty when it is not given. */
  private static List<String> upsertKey(String keyText) {
    if (keyText == null) {
      return List.of();
    }
    List<String> upsertKey = Arrays.stream(keyText.split(",", -1)).map(String::trim).toList();
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
    return upsertKey;
  }

  private static String checkpointLocation(String given, String query) {
    if (given == null || given.isBlank()) {
      if (query == null || query.isBlank()) {
        throw CATALOG.failure(
            OptionErrorClass.MISSING_OPTION,
            CHECKPOINT_LOCATION.key(),
            "option checkpointLocation is required: a directory unique to this query (or run the"
                + " sink inside a query, whose checkpoint location it uses)");
      }
      return query;
    }
    if (query != null && !stripSlash(given).equals(stripSlash(query))) {
      throw CATALOG.conflict(
          "option checkpointLocation '"
              + given
              + "' differs from the query's checkpoint location '"
              + query
              + "'; leave it out or give the same one");
    }
    return given;
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
