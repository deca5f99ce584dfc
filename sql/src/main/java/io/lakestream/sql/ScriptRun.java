package io.lakestream.sql;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.plan.OperatorUids;
import io.lakestream.sql.plan.SqlPlan;
import io.lakestream.sql.streamingtable.StreamingTableRun;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One build of a script into a job: runs its statements in order ({@code SET} and DDL at once,
 * {@code INSERT}s collected), compiles the {@code INSERT}s' plan, then attaches them to the
 * environment with the plan's uids ({@link PlanUids}). A {@code DROP_DUPLICATES_WITHIN_WATERMARK}
 * view is a plain view of its input while the plan is compiled ({@code CompiledPlan} cannot hold a
 * DataStream) and is replaced by the deduplication before the job is built, so the statements are
 * planned twice when the script has such a view.
 */
final class ScriptRun {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptRun.class);

  private record Insert(SqlScript.Statement statement, String table, String label) {}

  private record View(SqlScript.Statement statement, DropDuplicatesView dedup) {}

  private final StreamExecutionEnvironment env;
  private final StreamTableEnvironment tables;
  private final StatementErrors errors;
  private final Map<String, String> overrides;
  private final StreamStatementSet compiled;
  private final List<Insert> inserts = new ArrayList<>();
  private final List<View> views = new ArrayList<>();

  /**
   * @param overrides table settings that win over the script's {@code SET}
   */
  ScriptRun(
      StreamExecutionEnvironment env,
      StreamTableEnvironment tables,
      StatementErrors errors,
      Map<String, String> overrides) {
    this.env = env;
    this.tables = tables;
    this.errors = errors;
    this.overrides = overrides;
    this.compiled = tables.createStatementSet();
  }

  /** Runs the statements in order. */
  void run(List<SqlScript.Statement> statements) {
    for (SqlScript.Statement statement : statements) {
      requireSink(statement);
      errors.run(statement, () -> runOne(statement));
    }
    if (inserts.isEmpty()) {
      throw new LakestreamException(
          SqlErrorClass.SQL_NO_INSERT,
          "The statements have no INSERT INTO, so the query has no sink. Add at least one INSERT"
              + " INTO <table> SELECT ...");
    }
  }

  private void requireSink(SqlScript.Statement statement) {
    String first = statement.firstWord();
    if (first.equals("SELECT") || first.equals("WITH") || first.equals("VALUES")) {
      throw new LakestreamException(
          SqlErrorClass.SQL_UNSUPPORTED_STATEMENT,
          "The query at "
              + errors.where(statement)
              + " has no sink: a streaming query writes somewhere. Write it as INSERT INTO"
              + " <table> SELECT ...");
    }
  }

  private void runOne(SqlScript.Statement written) {
    // CREATE OR REFRESH STREAMING TABLE: the Delta table created if missing, then INSERT INTO it
    SqlScript.Statement statement = StreamingTableRun.prepare(written, tables);
    if (statement == null) {
      return; // another streaming table of the script than the one refreshed
    }
    if (statement.isInsert()) {
      compiled.addInsertSql(statement.text());
      inserts.add(
          new Insert(
              statement,
              InsertTarget.of(statement, tables.getCurrentCatalog(), tables.getCurrentDatabase()),
              InsertTarget.label(statement)));
    } else if (statement.firstWord().equals("SET")) {
      set(statement);
    } else if (DropDuplicatesView.isNamedIn(statement)) {
      DropDuplicatesView view = DropDuplicatesView.of(statement);
      view.registerPlain(tables);
      views.add(new View(statement, view));
    } else {
      tables.executeSql(statement.text());
    }
  }

  /**
   * A {@code SET} of a table setting goes to the table configuration, which the planner reads when
   * the inserts are planned, unless the command line overrides it; a query setting ({@code
   * lakestream.*}) is checked and kept out of it (the query's builder applies it).
   */
  private void set(SqlScript.Statement statement) {
    Map.Entry<String, String> setting = SqlDataflow.setting(statement, errors);
    String key = setting.getKey();
    if (SqlQuerySettings.isQuerySetting(key)) {
      SqlQuerySettings.canonicalKey(key, setting.getValue());
    } else if (overrides.containsKey(key)) {
      LOG.info("SET '{}' at {} is overridden by the command line", key, errors.where(statement));
    } else {
      tables.getConfig().getConfiguration().setString(key, setting.getValue());
    }
  }

  /**
   * Compiles the inserts' plan ({@code StatementSet#compilePlan}, tables by identifier and schema:
   * no options, so no secrets).
   *
   * @return the plan's JSON, or the reason Flink could not write it
   */
  CompiledOrNot compile() {
    String objects = TableConfigOptions.PLAN_COMPILE_CATALOG_OBJECTS.key();
    Configuration config = tables.getConfig().getConfiguration();
    Optional<String> before =
        config.getOptional(ConfigOptions.key(objects).stringType().noDefaultValue());
    config.set(
        TableConfigOptions.PLAN_COMPILE_CATALOG_OBJECTS,
        TableConfigOptions.CatalogPlanCompilation.SCHEMA);
    try {
      CompiledPlan plan = compiled.compilePlan();
      return new CompiledOrNot(Optional.of(plan.asJsonString()), null);
    } catch (RuntimeException e) {
      return new CompiledOrNot(Optional.empty(), e);
    } finally {
      config.removeKey(objects);
      before.ifPresent(value -> config.setString(objects, value));
    }
  }

  /** A compiled plan, or why there is none. */
  record CompiledOrNot(Optional<String> json, RuntimeException failure) {}

  /**
   * Attaches the inserts to the environment (the views replaced by their deduplication) and gives
   * the planner's operators the plan's uids.
   *
   * @return the plan of the job, around {@code flinkPlan}
   */
  SqlPlan attach(CompiledOrNot flinkPlan) {
    StreamStatementSet job = views.isEmpty() ? compiled : withDeduplication();
    int before = env.getTransformations().size();
    errors.run(
        inserts.get(inserts.size() - 1).statement(),
        () -> SideSinks.collect(env, job::attachAsDataStream));
    List<Transformation<?>> sinks =
        new ArrayList<>(env.getTransformations().subList(before, env.getTransformations().size()));
    List<String> written = inserts.stream().map(Insert::table).toList();
    Set<String> uids = PlanUids.assign(sinks, OperatorUids.statementKeys(written));
    warnIfNotCompiled(flinkPlan);
    List<SqlPlan.Statement> statements =
        inserts.stream()
            .map(i -> new SqlPlan.Statement(i.table(), i.label(), errors.where(i.statement())))
            .toList();
    return new SqlPlan(
        statements, viewsIn(sinks), uids, flinkPlan.json().map(SqlPlan::readFlinkPlan));
  }

  /** The inserts again, planned with the views' deduplication in place of their plain views. */
  private StreamStatementSet withDeduplication() {
    for (View view : views) {
      errors.run(
          view.statement(), () -> SideSinks.collect(env, () -> view.dedup().replacePlain(tables)));
    }
    StreamStatementSet job = tables.createStatementSet();
    for (Insert insert : inserts) {
      errors.run(insert.statement(), () -> job.addInsertSql(insert.statement().text()));
    }
    return job;
  }

  /** The views whose deduplication the job runs (a view no insert reads has no operator). */
  private List<SqlPlan.DedupView> viewsIn(List<Transformation<?>> sinks) {
    Set<String> uids = new HashSet<>();
    sinks.forEach(s -> s.getTransitivePredecessors().forEach(t -> uids.add(t.getUid())));
    return views.stream()
        .filter(v -> uids.contains(v.dedup().uid()))
        .map(
            v ->
                new SqlPlan.DedupView(
                    v.dedup().uid(),
                    v.dedup().view(),
                    v.dedup().keys(),
                    errors.where(v.statement())))
        .toList();
  }

  private static void warnIfNotCompiled(CompiledOrNot plan) {
    if (plan.failure() != null) {
      LOG.warn(
          "The statements' plan could not be compiled ({}): the restart matrix checks this query's"
              + " SQL operators by their uids and key types only, not by their plan",
          plan.failure().toString());
    }
  }
}
