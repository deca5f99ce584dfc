package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.QueryLease;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The savepoint-based upgrade of a running query to a new program (a new jar, new options), in one
 * call: {@link #check} the new program against the checkpoint location (fingerprint, restart
 * matrix) BEFORE touching the running job, so an incompatible change is refused while the old job
 * keeps running and committing; then stop the old job with a savepoint in the location's {@code
 * savepoints/}, start the new program (it restores that savepoint, the newest snapshot), and wait
 * for its first committed epoch.
 *
 * <p>The running job is found through the Flink REST API of the configuration (the {@code -m} of
 * {@code flink run}), by the query's name, or given by id. Fails with a {@link LakestreamException}
 * ({@link QueryErrorClass#QUERY_UPGRADE_FAILED}) that says which step failed and in what state it
 * left the query: refused (old job untouched), stop failed (old job still running), or started but
 * no epoch yet (new job running).
 */
@PublicEvolving
public final class QueryUpgrade {
  private static final Logger LOG = LoggerFactory.getLogger(QueryUpgrade.class);
  private static final Duration LEASE_WAIT = QueryLease.EXPIRY.plusSeconds(15);

  private final StreamingQueryBuilder program;
  private URI restApi;
  private String jobId;
  private Duration firstEpochTimeout = Duration.ofMinutes(5);

  private QueryUpgrade(StreamingQueryBuilder program) {
    this.program = program;
  }

  /** An upgrade to {@code program} (configured as for {@link StreamingQueryBuilder#start()}). */
  public static QueryUpgrade to(StreamingQueryBuilder program) {
    return new QueryUpgrade(program);
  }

  /** The Flink REST API of the cluster the old job runs on; default: from the configuration. */
  public QueryUpgrade restApi(URI restApi) {
    this.restApi = restApi;
    return this;
  }

  /** The old job's id; default: the one running job named as the query. */
  public QueryUpgrade jobId(String jobId) {
    this.jobId = jobId;
    return this;
  }

  /** How long to wait for the new run's first committed epoch. Default 5 min. */
  public QueryUpgrade firstEpochTimeout(Duration timeout) {
    this.firstEpochTimeout = timeout;
    return this;
  }

  /**
   * Checks the new program only, touching neither the cluster nor the location: the pre-flight for
   * deployments where the service stops and starts the job (EMR application mode, Managed Service
   * for Apache Flink).
   *
   * @throws LakestreamException the restart refusal (restart matrix, nesting, replay)
   */
  public RestartCheck check() throws Exception {
    program.sanityCheck();
    return QueryLauncher.check(program.settings());
  }

  /** What {@link #run} would do, without doing it. */
  public record Plan(RestartCheck check, URI restApi, String jobId) {
    public String summary() {
      return check.summary() + "; would stop job " + jobId + " on " + restApi + " with a savepoint";
    }
  }

  /** Checks the program and finds the running job; changes nothing. */
  public Plan plan(ReadableConfig flinkConfiguration) throws Exception {
    RestartCheck check = check();
    URI rest = restApi != null ? restApi : restApiOf(flinkConfiguration);
    return new Plan(check, rest, jobId != null ? jobId : runningJob(rest).toString());
  }

  /**
   * Upgrades: checks, stops the old job with a savepoint, starts the new program and waits for its
   * first committed epoch.
   *
   * @return the new run
   */
  public StreamingQuery run(ReadableConfig flinkConfiguration) throws Exception {
    Plan plan = plan(flinkConfiguration);
    LOG.info("Upgrade: {}", plan.summary());
    CheckpointLocation location = new CheckpointLocation(program.settings().checkpointLocation());
    String savepoint = stop(plan, location);
    LOG.info("Upgrade: job {} stopped with savepoint {}", plan.jobId(), savepoint);
    awaitLeaseReleased(location);
    StreamingQuery query = program.start();
    awaitFirstEpoch(query);
    return query;
  }

  private static String stop(Plan plan, CheckpointLocation location) throws Exception {
    RestJobControl old = new RestJobControl(plan.restApi(), JobID.fromHexString(plan.jobId()));
    try {
      return old.stopWithSavepoint(location.savepointsDir().toString()).get(11, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      throw failed(
          "stopping job "
              + plan.jobId()
              + " with a savepoint failed ("
              + e.getCause().getMessage()
              + "); the old job keeps running, nothing was changed. Try again, or stop it yourself"
              + " (flink stop --savepointPath "
              + location.savepointsDir()
              + ") and run the new program",
          e.getCause());
    }
  }

  /** The old job's runner releases the lease as its last act once the job has ended. */
  private static void awaitLeaseReleased(CheckpointLocation location) throws Exception {
    long deadline = System.nanoTime() + LEASE_WAIT.toNanos();
    while (QueryLease.isHeld(location) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
  }

  private void awaitFirstEpoch(StreamingQuery query) throws Exception {
    long deadline = System.nanoTime() + firstEpochTimeout.toNanos();
    while (query.lastProgress().isEmpty() && System.nanoTime() < deadline) {
      if (!query.isActive()) {
        query.awaitTermination(); // throws its failure
        return; // ended (availableNow with nothing new) before a report
      }
      Thread.sleep(200);
    }
    Optional<QueryProgress> first = query.lastProgress();
    if (first.isEmpty()) {
      throw failed(
          "the new run "
              + query.runId()
              + " started from the savepoint but committed no epoch within "
              + firstEpochTimeout.toSeconds()
              + " s; it keeps running: look at its job and its progress/ files",
          null);
    }
    LOG.info("Upgrade: the new run {} committed epoch {}", query.runId(), first.get().batchId());
  }

  private JobID runningJob(URI rest) throws Exception {
    String name = program.settings().queryName();
    List<JobID> jobs = RestJobControl.activeJobsNamed(rest, name);
    if (jobs.size() != 1) {
      throw failed(
          (jobs.isEmpty() ? "no running job" : jobs.size() + " running jobs " + jobs)
              + " named '"
              + name
              + "' on "
              + rest
              + "; nothing was changed. Name the job to upgrade with --job <job id> (flink list)",
          null);
    }
    return jobs.get(0);
  }

  private static URI restApiOf(ReadableConfig conf) {
    return StateOperatorMetrics.restAddress(conf)
        .orElseThrow(
            () ->
                failed(
                    "the configuration names no Flink REST API (rest.address and rest.port, or"
                        + " flink run -m <host:port>); nothing was changed",
                    null));
  }

  private static LakestreamException failed(String message, Throwable cause) {
    return new LakestreamException(
        QueryErrorClass.QUERY_UPGRADE_FAILED, "Upgrade: " + message, cause);
  }
}
