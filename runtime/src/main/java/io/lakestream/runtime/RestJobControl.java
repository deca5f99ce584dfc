package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.api.common.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link JobControl} through the JobManager's REST API ({@code POST /jobs/:id/stop}, then {@code
 * GET /jobs/:id/savepoints/:trigger} until the savepoint is done; {@code PATCH
 * /jobs/:id?mode=cancel}). The same calls {@code flink stop} and {@code flink cancel} make, so it
 * works wherever the job runs: an embedded MiniCluster, a session cluster, application mode,
 * Managed Service for Apache Flink. A stop that the REST API refuses, or whose savepoint fails,
 * completes exceptionally with the JobManager's reason.
 */
final class RestJobControl implements JobControl {
  private static final Logger LOG = LoggerFactory.getLogger(RestJobControl.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration SAVEPOINT_TIMEOUT = Duration.ofMinutes(10);
  private static final long POLL_MILLIS = 200;
  private static final Duration JOB_MASTER_INITIALIZING = Duration.ofSeconds(60);

  private final URI base;
  private final JobID job;
  private final HttpClient http;
  private final ExecutorService waiter;

  RestJobControl(URI base, JobID job) {
    this.base = base;
    this.job = job;
    this.http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    this.waiter =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "lakestream-stop-" + job);
              t.setDaemon(true);
              return t;
            });
  }

  /** The ids of the jobs named {@code name} that are running (not yet ended) on {@code base}. */
  static java.util.List<JobID> activeJobsNamed(URI base, String name)
      throws IOException, InterruptedException {
    RestJobControl rest = new RestJobControl(base, new JobID());
    java.util.List<JobID> found = new java.util.ArrayList<>();
    for (JsonNode job : rest.send("GET", "/jobs/overview", null).path("jobs")) {
      String state = job.path("state").asText();
      boolean ended = java.util.Set.of("FINISHED", "CANCELED", "FAILED").contains(state);
      if (name.equals(job.path("name").asText()) && !ended) {
        found.add(JobID.fromHexString(job.path("jid").asText()));
      }
    }
    return found;
  }

  /** The job's state ({@code RUNNING}, {@code FINISHED}, ...). */
  String state() throws IOException, InterruptedException {
    return send("GET", "/jobs/" + job, null).path("state").asText();
  }

  @Override
  public CompletableFuture<String> stopWithSavepoint(String targetDirectory) {
    return CompletableFuture.supplyAsync(() -> stopAndWait(targetDirectory), waiter);
  }

  private String stopAndWait(String targetDirectory) {
    try {
      String body =
          MAPPER.writeValueAsString(
              Map.of("targetDirectory", targetDirectory, "drain", false, "formatType", "NATIVE"));
      JsonNode trigger = send("POST", "/jobs/" + job + "/stop", body);
      String triggerId = trigger.path("request-id").asText();
      long deadline = System.nanoTime() + SAVEPOINT_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        JsonNode status = send("GET", "/jobs/" + job + "/savepoints/" + triggerId, null);
        if ("COMPLETED".equals(status.path("status").path("id").asText())) {
          JsonNode operation = status.path("operation");
          if (operation.hasNonNull("location")) {
            return operation.get("location").asText();
          }
          throw new IllegalStateException(
              "the savepoint failed: "
                  + operation.path("failure-cause").path("stack-trace").asText("unknown cause"));
        }
        Thread.sleep(POLL_MILLIS);
      }
      throw new IllegalStateException(
          "the savepoint did not complete within " + SAVEPOINT_TIMEOUT.toMinutes() + " min");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping job " + job, e);
    }
  }

  @Override
  public void cancel() {
    try {
      send("PATCH", "/jobs/" + job + "?mode=cancel", null);
    } catch (IOException e) {
      LOG.warn("Could not cancel job {} through {}: {}", job, base, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JsonNode send(String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    long initializingUntil = System.nanoTime() + JOB_MASTER_INITIALIZING.toNanos();
    // A job just submitted or restored refuses every call until its JobMaster is up; the refused
    // call did nothing, so it is safe to make it again.
    while (response.statusCode() / 100 != 2
        && response.body().contains("UnavailableDispatcherOperationException")
        && System.nanoTime() < initializingUntil) {
      Thread.sleep(POLL_MILLIS);
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    }
    if (response.statusCode() / 100 != 2) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_STOP_FAILED,
          method
              + " "
              + path
              + " on the Flink REST API "
              + base
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
    return response.body().isBlank() ? MAPPER.createObjectNode() : MAPPER.readTree(response.body());
  }

  @Override
  public String toString() {
    return "REST " + base + " job " + job;
  }
}
