package io.lakestream.sql;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.Dataflow;
import io.lakestream.sql.streamingtable.StreamingTableRun;
import io.lakestream.state.query.QueryContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;

/**
 * Flink SQL statements as one query of the query runtime: {@code CREATE CATALOG}, {@code CREATE
 * TABLE}, {@code SET} and the other statements run in order as they are met; every {@code INSERT
 * INTO} joins one statement set, and all of them become the query's dataflow (one Flink job, one
 * checkpoint location, one app id), as a Structured Streaming query writes its sinks.
 *
 * <pre>{@code
 * StreamingQuery q = StreamingQueryBuilder.of(SqlDataflow.of(script))
 *     .queryName("orders_silver")
 *     .checkpointLocation("s3://lake/_checkpoints/orders_silver")
 *     .trigger(Trigger.availableNow())
 *     .start();
 * }</pre>
 *
 * <p>The lakestream tables ({@code 'connector' = 'delta'}, ...) take the query's context from the
 * runtime: their commits carry its app id and their sources follow its trigger. Every operator the
 * planner creates gets a uid ({@code table.exec.uid.generation = ALWAYS}), which the runtime
 * requires, numbered per query so the same statements get the same uids in any JVM; the tables'
 * sources and sinks take their table's name as uid. The job runs with Flink's object reuse on, as
 * Flink's planner is built for: a user-defined function must not keep its arguments after it
 * returns.
 *
 * <p>Failures, raised by {@link #build} before anything runs: a statement Flink cannot parse or
 * validate ({@link SqlErrorClass#SQL_INVALID_STATEMENT}, with its line and column in the script), a
 * lakestream error raised while planning a statement (its own class, the statement's position
 * added), a {@code SELECT} outside {@code INSERT INTO} ({@link
 * SqlErrorClass#SQL_UNSUPPORTED_STATEMENT}) and a script without an {@code INSERT} ({@link
 * SqlErrorClass#SQL_NO_INSERT}). Messages never carry the tables' option values (Flink's own
 * messages list them, and they may hold secrets).
 */
@PublicEvolving
public final class SqlDataflow implements Dataflow {
  private static final Pattern PLANNER_UID = Pattern.compile("(\\d+)_(.+)");

  /** {@code SET 'key' = 'value'} (quotes optional, {@code ''} inside quotes), as the SQL client. */
  private static final Pattern SET =
      Pattern.compile(
          "(?is)SET\\s+(?:'((?:[^']|'')*)'|([\\w.\\-]+))\\s*=\\s*(?:'((?:[^']|'')*)'|(\\S+))\\s*");

  private final List<SqlScript.Statement> statements;
  private final Map<String, String> settings;

  private SqlDataflow(List<SqlScript.Statement> statements, Map<String, String> settings) {
    this.statements = List.copyOf(statements);
    this.settings = Map.copyOf(settings);
  }

  /** The statements of a script (separated by semicolons). */
  public static SqlDataflow of(String script) {
    return new SqlDataflow(
        SqlScript.statements(Objects.requireNonNull(script, "script")), Map.of());
  }

  /** A copy that applies this table setting before the first statement ({@code SET} wins). */
  public SqlDataflow withSetting(String key, String value) {
    Map<String, String> all = new LinkedHashMap<>(settings);
    all.put(key, value);
    return new SqlDataflow(statements, all);
  }

  /** The statements, in order. */
  public List<SqlScript.Statement> statements() {
    return statements;
  }

  @Override
  public void build(StreamExecutionEnvironment env, QueryContext query) {
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
    settings.forEach(config.getConfiguration()::setString);
    QueryContextConfig.write(config, query);
    StreamStatementSet inserts = tables.createStatementSet();
    int insertCount = 0;
    for (SqlScript.Statement written : statements) {
      // CREATE OR REFRESH STREAMING TABLE: the Delta table created if missing, then INSERT INTO it
      SqlScript.Statement statement =
          call(written, () -> StreamingTableRun.prepare(written, tables));
      if (statement == null) {
        continue; // another streaming table of the script than the one refreshed
      }
      if (statement.isInsert()) {
        run(statement, () -> inserts.addInsertSql(statement.text()));
        insertCount++;
      } else if (statement.firstWord().equals("SELECT")
          || statement.firstWord().equals("WITH")
          || statement.firstWord().equals("VALUES")) {
        throw new LakestreamException(
            SqlErrorClass.SQL_UNSUPPORTED_STATEMENT,
            "The query at "
                + statement.position()
                + " has no sink: a streaming query writes somewhere. Write it as INSERT INTO"
                + " <table> SELECT ...");
      } else if (statement.firstWord().equals("SET")) {
        run(statement, () -> set(config, statement));
      } else if (DropDuplicatesView.isNamedIn(statement)) {
        run(
            statement,
            () -> SideSinks.collect(env, () -> DropDuplicatesView.of(statement).register(tables)));
      } else {
        run(statement, () -> tables.executeSql(statement.text()));
      }
    }
    if (insertCount == 0) {
      throw new LakestreamException(
          SqlErrorClass.SQL_NO_INSERT,
          "The statements have no INSERT INTO, so the query has no sink. Add at least one INSERT"
              + " INTO <table> SELECT ...");
    }
    int before = env.getTransformations().size();
    run(
        statements.get(statements.size() - 1),
        () -> SideSinks.collect(env, inserts::attachAsDataStream));
    renumberPlannerUids(env.getTransformations().subList(before, env.getTransformations().size()));
  }

  /**
   * The planner's uids are {@code <node id>_<kind>}, its node ids counted per JVM, not per query: a
   * query planned a second time in one JVM (a restart, a schema-change rebuild) would get other
   * uids and lose its state. They are numbered again from 1 in the order the planner created the
   * nodes, which is the same for the same statements.
   */
  private static void renumberPlannerUids(List<Transformation<?>> sinks) {
    Map<Integer, Transformation<?>> byId = new TreeMap<>();
    for (Transformation<?> sink : sinks) {
      sink.getTransitivePredecessors().forEach(t -> byId.putIfAbsent(t.getId(), t));
    }
    Map<String, Integer> nodes = new LinkedHashMap<>();
    for (Transformation<?> t : byId.values()) {
      Matcher uid = t.getUid() == null ? null : PLANNER_UID.matcher(t.getUid());
      if (uid != null && uid.matches()) {
        int node = nodes.computeIfAbsent(uid.group(1), k -> nodes.size() + 1);
        t.setUid(node + "_" + uid.group(2));
      }
    }
  }

  /**
   * Applies a {@code SET} statement to the table settings, which the planner reads when the inserts
   * are planned (a TableEnvironment runs {@code SET} only in the SQL client).
   */
  private static void set(TableConfig config, SqlScript.Statement statement) {
    String text = statement.text().strip(); // the script splitter drops comments
    Matcher set = SET.matcher(text);
    if (!set.matches()) {
      throw new LakestreamException(
          SqlErrorClass.SQL_UNSUPPORTED_STATEMENT,
          "The SET statement at "
              + statement.position()
              + " is not SET 'key' = 'value': write one setting per statement, e.g. SET"
              + " 'table.exec.state.ttl' = '1 h' (listing or resetting settings is not a part of a"
              + " query).");
    }
    String key = set.group(1) != null ? set.group(1).replace("''", "'") : set.group(2);
    String value = set.group(3) != null ? set.group(3).replace("''", "'") : set.group(4);
    config.getConfiguration().setString(key, value);
  }

  private static <T> T call(SqlScript.Statement statement, Supplier<T> action) {
    try {
      return action.get();
    } catch (RuntimeException e) {
      throw failureAt(statement, e);
    }
  }

  private static void run(SqlScript.Statement statement, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      throw failureAt(statement, e);
    }
  }

  /** Our own error as it was raised, or Flink's without its option listing, at the statement. */
  private static LakestreamException failureAt(SqlScript.Statement statement, RuntimeException e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof LakestreamException ours) {
        String name = ours.errorClass();
        ErrorClass same = () -> name;
        return new LakestreamException(
            same, ours.detail() + " (statement at " + statement.position() + ")", ours);
      }
    }
    return new LakestreamException(
        SqlErrorClass.SQL_INVALID_STATEMENT,
        "Statement at " + statement.position() + " failed: " + withoutOptions(e),
        null);
  }

  /** Flink's message up to the table options it lists (whose values may be secrets). */
  private static String withoutOptions(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String message = String.valueOf(c.getMessage());
      int options = message.indexOf("Table options are:");
      text.append(text.length() == 0 ? "" : " Caused by: ")
          .append(options < 0 ? message : message.substring(0, options).strip());
    }
    return text.toString();
  }
}
