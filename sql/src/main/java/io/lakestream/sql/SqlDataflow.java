package io.lakestream.sql;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.DataflowPlan;
import io.lakestream.runtime.PlannedDataflow;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.runtime.TriggerSettings;
import io.lakestream.sql.plan.SqlPlan;
import io.lakestream.state.query.QueryContext;
import java.net.URI;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;

/**
 * Flink SQL statements as one query of the query runtime: {@code CREATE CATALOG}, {@code CREATE
 * TABLE}, {@code SET} and the other statements run in order as they are met; every {@code INSERT
 * INTO} joins one statement set, and all of them become the query's dataflow (one Flink job, one
 * checkpoint location, one app id), as a Structured Streaming query writes its sinks.
 *
 * <pre>{@code
 * StreamingQuery q = SqlDataflow.fromFile("orders_silver.sql", text)
 *     .queryBuilder() // the script's SET 'lakestream.trigger', 'lakestream.checkpointLocation', ...
 *     .start();
 * }</pre>
 *
 * <p>The query's own settings are {@code SET 'lakestream.<key>' = '...'} statements ({@link
 * SqlQuerySettings}: trigger, checkpoint location, query name), which {@link #queryBuilder} applies
 * and which never reach Flink's table configuration; a query started with other settings than its
 * script names is refused ({@link SqlErrorClass#SQL_QUERY_SETTING_NOT_APPLIED}). {@link
 * #withOverride} settings (the command line's) win over the script's.
 *
 * <p>The lakestream tables ({@code 'connector' = 'delta'}, ...) take the query's context from the
 * runtime: their commits carry its app id and their sources follow its trigger. Every operator the
 * planner creates gets a uid derived from the plan ({@link io.lakestream.sql.plan.OperatorUids}:
 * its statement's sink table, its kind and its rank among the statement's operators of that kind),
 * so a filter or projection added before an aggregation leaves the aggregation's state where it
 * was; the tables' sources and sinks take their table's name as uid. Locations of SQL queries
 * started before these uids (planner uids numbered {@code <n>_<kind>}) are refused by the restart
 * check: start them on a new checkpoint location. The job runs with Flink's object reuse on, as
 * Flink's planner is built for: a user-defined function must not keep its arguments after it
 * returns.
 *
 * <p>As a {@link PlannedDataflow}, the statements' compiled plan ({@code StatementSet#compilePlan},
 * tables by identifier and schema, without their options) is kept in the checkpoint location with
 * every run, and a restart is checked against the stored one before anything runs ({@link
 * io.lakestream.sql.plan.SqlRestartCompatibility}): filters, projections, table options such as
 * rate limits and the trigger may change; a changed, added or removed stateful operator (another
 * {@code GROUP BY} key, deduplication key or join) is refused naming the statement and operator.
 *
 * <p>Failures, raised before anything runs: a statement Flink cannot parse or validate ({@link
 * SqlErrorClass#SQL_INVALID_STATEMENT}, with its position in the script, {@code file:line:column}
 * for {@link #fromFile}), a lakestream error raised while planning a statement (its own class, the
 * statement's position added), a {@code SELECT} outside {@code INSERT INTO} ({@link
 * SqlErrorClass#SQL_UNSUPPORTED_STATEMENT}), a script without an {@code INSERT} ({@link
 * SqlErrorClass#SQL_NO_INSERT}), an unknown {@code lakestream.*} setting ({@code UNKNOWN_OPTION})
 * or an invalid trigger ({@code QUERY_INVALID_TRIGGER}, {@code QUERY_UNSUPPORTED_TRIGGER}).
 * Messages never carry the tables' option values (Flink's own messages list them, and they may hold
 * secrets).
 */
@PublicEvolving
public final class SqlDataflow implements PlannedDataflow {
  /** {@code SET 'key' = 'value'} (quotes optional, {@code ''} inside quotes), as the SQL client. */
  private static final Pattern SET =
      Pattern.compile(
          "(?is)SET\\s+(?:'((?:[^']|'')*)'|([\\w.\\-]+))\\s*=\\s*(?:'((?:[^']|'')*)'|(\\S+))\\s*");

  private final List<SqlScript.Statement> statements;
  private final String source;
  private final Map<String, String> settings;
  private final Map<String, String> overrides;

  private SqlDataflow(
      List<SqlScript.Statement> statements,
      String source,
      Map<String, String> settings,
      Map<String, String> overrides) {
    this.statements = List.copyOf(statements);
    this.source = source;
    this.settings = Map.copyOf(settings);
    this.overrides = Map.copyOf(overrides);
  }

  /** The statements of a script (separated by semicolons). */
  public static SqlDataflow of(String script) {
    return new SqlDataflow(
        SqlScript.statements(Objects.requireNonNull(script, "script")), null, Map.of(), Map.of());
  }

  /**
   * The statements of a script read from a file: failures point at {@code fileName:line:column}.
   */
  public static SqlDataflow fromFile(String fileName, String script) {
    return new SqlDataflow(
        SqlScript.statements(Objects.requireNonNull(script, "script")),
        Objects.requireNonNull(fileName, "fileName"),
        Map.of(),
        Map.of());
  }

  /**
   * A copy that applies this setting before the first statement ({@code SET} wins): a table
   * setting, or a query setting ({@code lakestream.*}).
   */
  public SqlDataflow withSetting(String key, String value) {
    Map<String, String> all = new LinkedHashMap<>(settings);
    all.put(key, value);
    return new SqlDataflow(statements, source, all, overrides);
  }

  /**
   * A copy with a setting that wins over the script's {@code SET} of the same key, as the command
   * line's {@code -D key=value}: a table setting, or a query setting ({@code lakestream.*}).
   */
  public SqlDataflow withOverride(String key, String value) {
    Map<String, String> all = new LinkedHashMap<>(overrides);
    all.put(key, value);
    return new SqlDataflow(statements, source, settings, all);
  }

  /** The statements, in order. */
  public List<SqlScript.Statement> statements() {
    return statements;
  }

  /**
   * The query settings ({@link SqlQuerySettings}) by their declared keys: {@link #withSetting}'s,
   * then the script's {@code SET 'lakestream.*'}, then the overrides, each winning over the one
   * before.
   *
   * @throws LakestreamException for an unknown key or a trigger that does not parse (at its
   *     statement)
   */
  public Map<String, String> querySettings() {
    StatementErrors errors = new StatementErrors(source);
    Map<String, String> found = new LinkedHashMap<>();
    putQuerySettings(settings, found);
    for (SqlScript.Statement statement : statements) {
      if (statement.firstWord().equals("SET")) {
        Map.Entry<String, String> set = setting(statement, errors);
        if (SqlQuerySettings.isQuerySetting(set.getKey())) {
          errors.run(
              statement,
              () ->
                  found.put(
                      SqlQuerySettings.canonicalKey(set.getKey(), set.getValue()), set.getValue()));
        }
      }
    }
    putQuerySettings(overrides, found);
    return found;
  }

  private static void putQuerySettings(Map<String, String> given, Map<String, String> found) {
    given.forEach(
        (key, value) -> {
          if (SqlQuerySettings.isQuerySetting(key)) {
            found.put(SqlQuerySettings.canonicalKey(key, value), value);
          }
        });
  }

  /** The table settings of {@code given}: all but the query settings. */
  private static Map<String, String> tableSettings(Map<String, String> given) {
    Map<String, String> table = new LinkedHashMap<>(given);
    table.keySet().removeIf(SqlQuerySettings::isQuerySetting);
    return table;
  }

  /** A query of these statements with the script's query settings applied. */
  public StreamingQueryBuilder queryBuilder() {
    return SqlQuerySettings.applyTo(querySettings(), StreamingQueryBuilder.of(this));
  }

  @Override
  public Optional<DataflowPlan> buildPlanned(StreamExecutionEnvironment env, QueryContext query) {
    requireApplied(querySettings(), query);
    // The planner's operators and lakestream's table connectors keep no reference to a row after
    // passing it on, so chained operators may hand rows over without a serializer copy (a copy
    // of every string per operator otherwise), as the DataStream pipelines run.
    env.getConfig().enableObjectReuse();
    StreamTableEnvironment tables =
        StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    TableConfig config = tables.getConfig();
    config.set(
        ExecutionConfigOptions.TABLE_EXEC_UID_GENERATION,
        ExecutionConfigOptions.UidGeneration.ALWAYS);
    tableSettings(settings).forEach(config.getConfiguration()::setString);
    Map<String, String> tableOverrides = tableSettings(overrides);
    tableOverrides.forEach(config.getConfiguration()::setString);
    QueryContextConfig.write(config, query);
    ScriptRun run = new ScriptRun(env, tables, new StatementErrors(source), tableOverrides);
    run.run(statements);
    SqlPlan plan = run.attach(run.compile());
    return Optional.of(new SqlDataflowPlan(plan));
  }

  /** {@code SET 'key' = 'value'} as its key and value. */
  static Map.Entry<String, String> setting(SqlScript.Statement statement, StatementErrors errors) {
    String text = statement.text().strip(); // the script splitter blanks comments out
    Matcher set = SET.matcher(text);
    if (!set.matches()) {
      throw new LakestreamException(
          SqlErrorClass.SQL_UNSUPPORTED_STATEMENT,
          "The SET statement at "
              + errors.where(statement)
              + " is not SET 'key' = 'value': write one setting per statement, e.g. SET"
              + " 'table.exec.state.ttl' = '1 h' (listing or resetting settings is not a part of a"
              + " query).");
    }
    String key = set.group(1) != null ? set.group(1).replace("''", "'") : set.group(2);
    String value = set.group(3) != null ? set.group(3).replace("''", "'") : set.group(4);
    return new AbstractMap.SimpleImmutableEntry<>(key, value);
  }

  /**
   * Refuses a query started otherwise than its script's query settings say: Java code that passes
   * this dataflow to {@link StreamingQueryBuilder#of} gives the builder its settings itself.
   */
  private static void requireApplied(Map<String, String> settings, QueryContext query) {
    SqlQuerySettings.value(settings, SqlQuerySettings.QUERY_NAME)
        .filter(name -> !name.equals(query.queryName()))
        .ifPresent(name -> notApplied(SqlQuerySettings.QUERY_NAME.key(), name, query.queryName()));
    SqlQuerySettings.value(settings, SqlQuerySettings.CHECKPOINT_LOCATION)
        .filter(location -> !sameLocation(location, query.checkpointLocation()))
        .ifPresent(
            location ->
                notApplied(
                    SqlQuerySettings.CHECKPOINT_LOCATION.key(),
                    location,
                    query.checkpointLocation()));
    SqlQuerySettings.value(settings, SqlQuerySettings.TRIGGER)
        .filter(trigger -> !sameTriggerKind(Trigger.parse(trigger), query))
        .ifPresent(trigger -> notApplied(SqlQuerySettings.TRIGGER.key(), trigger, "another"));
  }

  private static boolean sameLocation(String setting, String running) {
    URI a = StreamingQueryBuilder.toUri(setting);
    URI b = URI.create(running);
    return a.toString().replaceAll("/+$", "").equals(b.toString().replaceAll("/+$", ""));
  }

  private static boolean sameTriggerKind(Trigger trigger, QueryContext query) {
    return TriggerSettings.bounded(trigger) == query.availableNow()
        && (trigger instanceof Trigger.Once) == query.ignoreRateLimits()
        && (trigger instanceof Trigger.RealTime) == query.realTime();
  }

  private static void notApplied(String key, String script, String running) {
    throw new LakestreamException(
        SqlErrorClass.SQL_QUERY_SETTING_NOT_APPLIED,
        "The script sets "
            + key
            + " = '"
            + script
            + "', but the query was started with "
            + running
            + ". Start it with SqlDataflow.queryBuilder() (or lakestream sql -f), which applies"
            + " the script's lakestream.* settings, or remove the SET from the script.");
  }
}
