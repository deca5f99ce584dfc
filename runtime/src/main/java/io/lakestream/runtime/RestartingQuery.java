package io.lakestream.runtime;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.SchemaRestartLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A query that restarts itself when its input schema changed ({@link SchemaChangeRestarts}): each
 * run is started by {@link QueryLauncher} from the same settings, so each rebuild reads the newest
 * recorded schema and restores the last checkpoint, and the restart checks apply as to any run. The
 * handle stays the same across runs: {@link #runId()} and the progress are the current run's.
 *
 * <p>Refuses to go on (the query fails with {@code QUERY_SCHEMA_CHANGE_RESTART_REFUSED}) when
 * {@link SchemaRestartBudget} says so: the hour's restarts are used up, or a rebuilt run failed for
 * the same columns before committing an epoch.
 */
final class RestartingQuery implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(RestartingQuery.class);

  private final QueryExecution.Settings settings;
  private final SchemaChangeRestarts policy;
  private final SchemaRestartBudget budget;
  private SchemaRestartLog restarts = SchemaRestartLog.empty();
  private final QueryEnd end = new QueryEnd();
  private final List<QueryProgress> earlierRuns = new ArrayList<>();
  private volatile StreamingQuery current;
  private volatile boolean stopping;

  private RestartingQuery(QueryExecution.Settings settings, SchemaChangeRestarts policy) {
    this.settings = settings;
    this.policy = policy;
    this.budget = new SchemaRestartBudget(settings.queryName(), policy);
  }

  /** Starts the first run and the thread that restarts it after a schema change. */
  static StreamingQuery start(QueryExecution.Settings settings, SchemaChangeRestarts policy)
      throws Exception {
    RestartingQuery query = new RestartingQuery(settings, policy);
    query.current = QueryLauncher.start(settings);
    Thread supervisor = new Thread(query::supervise, "lakestream-restarts-" + settings.queryName());
    supervisor.setDaemon(true);
    supervisor.start();
    return query;
  }

  private void supervise() {
    while (true) {
      StreamingQuery run = current;
      try {
        run.awaitTermination();
        end.complete(null);
        return;
      } catch (StreamingQueryException e) {
        Optional<List<String>> change = SchemaChangeRestarts.restartableCause(e);
        if (stopping || change.isEmpty()) {
          end(e);
          return;
        }
        Optional<String> refusal =
            budget.refusal(restarts, change.get(), run.lastProgress().isPresent(), Instant.now());
        if (refusal.isPresent()) {
          end(
              new StreamingQueryException(
                  e.getMessage(),
                  new LakestreamException(
                      QueryErrorClass.QUERY_SCHEMA_CHANGE_RESTART_REFUSED, refusal.get(), e)));
          return;
        }
        if (!restart(run, change.get())) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Starts the next run; false (and the query ended) if it could not start. */
  private boolean restart(StreamingQuery failed, List<String> columns) {
    restarts = SchemaRestartBudget.withRestart(restarts, columns, Instant.now());
    synchronized (earlierRuns) {
      earlierRuns.addAll(failed.recentProgress());
    }
    LOG.warn(
        "Query '{}': its input schema changed (columns {}); the new schema is recorded, so the"
            + " query is rebuilt and restarted from its checkpoint (restart {} of at most {} per"
            + " hour; --restart-on-schema-change=false turns this off)",
        settings.queryName(),
        columns,
        restarts.restartMillis().size(),
        policy.maxPerHour());
    try {
      current = QueryLauncher.start(settings.withoutRestoreFrom());
      return true;
    } catch (Exception e) {
      end(
          new StreamingQueryException(
              "Query '" + settings.queryName() + "' could not restart after a schema change", e));
      return false;
    }
  }

  private void end(StreamingQueryException e) {
    end.complete(e);
  }

  @Override
  public String id() {
    return current.id();
  }

  @Override
  public String runId() {
    return current.runId();
  }

  @Override
  public String name() {
    return current.name();
  }

  @Override
  public String appId() {
    return current.appId();
  }

  @Override
  public void awaitTermination() throws StreamingQueryException, InterruptedException {
    end.await();
  }

  @Override
  public boolean awaitTermination(Duration timeout)
      throws StreamingQueryException, InterruptedException {
    return end.await(timeout);
  }

  @Override
  public void stop() throws StreamingQueryException, InterruptedException {
    stopping = true;
    current.stop();
    awaitTermination();
  }

  @Override
  public void failWith(String reason) {
    stopping = true;
    current.failWith(reason);
  }

  @Override
  public void cancel() throws InterruptedException {
    stopping = true;
    current.cancel();
    end.awaitQuietly();
  }

  @Override
  public boolean isActive() {
    return !end.isDone();
  }

  @Override
  public boolean isDetached() {
    return current.isDetached();
  }

  @Override
  public Optional<QueryProgress> lastProgress() {
    Optional<QueryProgress> last = current.lastProgress();
    if (last.isPresent()) {
      return last;
    }
    synchronized (earlierRuns) {
      return earlierRuns.isEmpty()
          ? Optional.empty()
          : Optional.of(earlierRuns.get(earlierRuns.size() - 1));
    }
  }

  @Override
  public List<QueryProgress> recentProgress() {
    List<QueryProgress> all;
    synchronized (earlierRuns) {
      all = new ArrayList<>(earlierRuns);
    }
    all.addAll(current.recentProgress());
    return all.size() <= 100 ? all : new ArrayList<>(all.subList(all.size() - 100, all.size()));
  }

  @Override
  public QueryStatus status() {
    return current.status();
  }

  @Override
  public Optional<StreamingQueryException> exception() {
    return end.failure();
  }
}
