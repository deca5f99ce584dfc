package io.lakestream.sql.streamingtable;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.SqlScript;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Refreshes one streaming table of a SQL script ({@code CREATE OR REFRESH STREAMING TABLE}), as
 * Databricks SQL refreshes a streaming table: each refresh is an availableNow query of the script
 * (its catalogs, tables, views, functions and settings, and this table's statement; the script's
 * other streaming tables are left out) that creates the Delta table if missing and appends what its
 * input gained since the last refresh, then stops.
 *
 * <pre>{@code
 * StreamingTableRefresh orders5m = StreamingTableRefresh.of(script, "orders_5m");
 * orders5m.refresh();                                 // one refresh, like REFRESH STREAMING TABLE
 * ScheduledRefresh running = orders5m.startSchedule(); // the statement's SCHEDULE / TRIGGER ON UPDATE
 * }</pre>
 *
 * <p>The table lives in the script's Delta catalog ({@code CREATE CATALOG lake WITH ('type' =
 * 'delta', 'warehouse' = ...)}, then {@code USE CATALOG lake} or a qualified name), in {@code
 * <warehouse>/<database>/<table>}; the refresh's checkpoint location is {@code
 * <table>/_checkpoints/streaming_table}, so the table and its progress move and drop together. The
 * query is named after the table, and its app id is the same in every refresh. Failures, raised
 * before anything runs ({@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}): no streaming table of
 * that name (the message lists the script's), two of that name, a table outside a Delta catalog, a
 * clause that does not parse or a schedule under a minute, a plain {@code INSERT INTO} in the
 * script, or a script that sets {@code lakestream.checkpointLocation} or {@code lakestream.trigger}
 * (a refresh decides both).
 */
@PublicEvolving
public final class StreamingTableRefresh {
  private static final Pattern QUERY_SETTING =
      Pattern.compile(
          "(?is)\\s*SET\\s+'?\\s*lakestream\\.(checkpointLocation|trigger|queryName)\\b.*");

  private final String fileName;
  private final String script;
  private final ScriptStreamingTables.Found table;
  private final UnaryOperator<StreamingQueryBuilder> settings;

  private StreamingTableRefresh(
      String fileName,
      String script,
      ScriptStreamingTables.Found table,
      UnaryOperator<StreamingQueryBuilder> settings) {
    this.fileName = fileName;
    this.script = script;
    this.table = table;
    this.settings = settings;
  }

  /**
   * The refresh of streaming table {@code table} of {@code script}: its name as the script writes
   * it, or its name without catalog and database.
   *
   * @throws LakestreamException as the class says
   */
  public static StreamingTableRefresh of(String script, String table) {
    return fromFile(null, script, table);
  }

  /**
   * As {@link #of}, for a script read from a file: failures of its queries point at {@code
   * fileName:line:column}.
   */
  public static StreamingTableRefresh fromFile(String fileName, String script, String table) {
    Objects.requireNonNull(table, "table");
    List<SqlScript.Statement> statements = SqlScript.statements(script);
    requireRefreshable(statements);
    List<ScriptStreamingTables.Found> all = ScriptStreamingTables.of(statements);
    List<ScriptStreamingTables.Found> named =
        all.stream().filter(found -> names(found, table)).toList();
    if (named.size() != 1) {
      throw StreamingTableStatement.invalid(
          (named.isEmpty() ? "the script has no streaming table " : "the script has two tables ")
              + "named '"
              + table
              + "'; its streaming tables: "
              + all.stream().map(found -> found.id().asSummaryString()).toList()
              + (named.isEmpty() ? "" : ". Name it with its database, e.g. gold." + table));
    }
    return new StreamingTableRefresh(fileName, script, named.get(0), UnaryOperator.identity());
  }

  private static boolean names(ScriptStreamingTables.Found found, String name) {
    String wanted = String.join(".", StreamingTableStatement.parts(name));
    String full = found.id().asSummaryString();
    return full.equals(wanted) || full.endsWith("." + wanted);
  }

  /** No statement of the script may decide what the refresh decides. */
  private static void requireRefreshable(List<SqlScript.Statement> statements) {
    for (SqlScript.Statement statement : statements) {
      if (statement.isInsert()) {
        throw StreamingTableStatement.invalid(
            "the INSERT INTO at "
                + statement.position()
                + " would join the refresh of a streaming table: move the INSERT to a script of"
                + " its own (lakestream sql -f), or write it as a streaming table.");
      }
      if (QUERY_SETTING.matcher(statement.text()).matches()) {
        throw StreamingTableStatement.invalid(
            "the SET at "
                + statement.position()
                + " sets the query's "
                + statement.text().replaceAll("(?s).*lakestream\\.(\\w+).*", "$1")
                + ", which a refresh decides: it runs with availableNow, its checkpoint under the"
                + " table. Remove the SET.");
      }
    }
  }

  /**
   * A copy whose queries are also configured by {@code settings} (parallelism, state backend, Flink
   * configuration, listeners). The query's name, checkpoint location and trigger stay the
   * refresh's.
   */
  public StreamingTableRefresh withQuerySettings(UnaryOperator<StreamingQueryBuilder> settings) {
    UnaryOperator<StreamingQueryBuilder> before = this.settings;
    return new StreamingTableRefresh(
        fileName, script, table, builder -> settings.apply(before.apply(builder)));
  }

  /** The table's name, {@code catalog.database.table}. */
  public String table() {
    return table.id().asSummaryString();
  }

  /** The checkpoint location of the table's refreshes, below the table's directory. */
  public String checkpointLocation() {
    return table.checkpointLocation();
  }

  /** The statement's schedule, if it has one. */
  public Optional<RefreshSchedule> schedule() {
    return table.statement().schedule();
  }

  /** The query of one refresh, ready to start. */
  public StreamingQueryBuilder queryBuilder() {
    SqlDataflow script =
        fileName == null
            ? SqlDataflow.of(this.script)
            : SqlDataflow.fromFile(fileName, this.script);
    SqlDataflow dataflow = script.withSetting(StreamingTableRun.REFRESHED_TABLE.key(), table());
    return settings
        .apply(StreamingQueryBuilder.of(dataflow))
        .queryName(table.id().getObjectName().replaceAll("[^A-Za-z0-9_.-]", "_"))
        .checkpointLocation(checkpointLocation())
        .trigger(Trigger.availableNow());
  }

  /**
   * Runs one refresh and waits for it: the table created if missing, then the input's new rows
   * appended in one or more epochs.
   *
   * @return the ended query, for its progress
   * @throws io.lakestream.runtime.StreamingQueryException if the refresh failed
   */
  public StreamingQuery refresh() throws Exception {
    StreamingQuery query = queryBuilder().start();
    query.awaitTermination();
    return query;
  }

  /**
   * Starts refreshing on the statement's schedule in a thread of its own: the first refresh at
   * once, every next one {@link RefreshSchedule#interval} after the previous one started (at once
   * when that took longer), until {@link ScheduledRefresh#stop} or a refresh fails.
   *
   * @throws LakestreamException if the statement has no schedule
   */
  public ScheduledRefresh startSchedule() {
    RefreshSchedule schedule =
        schedule()
            .orElseThrow(
                () ->
                    StreamingTableStatement.invalid(
                        table()
                            + " has no schedule: add SCHEDULE EVERY 1 HOUR or TRIGGER ON UPDATE AT"
                            + " MOST EVERY INTERVAL 5 MINUTES to its statement, or refresh it"
                            + " from your scheduler (lakestream sql refresh)."));
    return startSchedule(schedule, Clock.systemUTC(), ScheduledRefresh.realTime(Clock.systemUTC()));
  }

  ScheduledRefresh startSchedule(
      RefreshSchedule schedule, Clock clock, ScheduledRefresh.Wait wait) {
    return ScheduledRefresh.start(
        table().toLowerCase(Locale.ROOT), this::refresh, schedule.interval(), clock, wait);
  }
}
