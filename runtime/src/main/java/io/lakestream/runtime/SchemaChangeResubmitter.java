package io.lakestream.runtime;

import io.lakestream.api.error.SchemaChangeFailure;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts a detached query after a schema change, from the JobManager: the query's runner ({@link
 * QueryRunner}) opens one when the job starts and hands it the job's end. Once the job has FAILED
 * and its failure carries a recorded schema change ({@link SchemaChangeFailure#recordedIn}), it
 * runs the query's program again through Flink's own jar submission on the same JobManager ({@code
 * POST /jars/upload} with the job's jar, {@code POST /jars/:id/run} with the program's arguments),
 * which rebuilds the query with the new schema and restores its newest checkpoint. The new program
 * applies the restart bounds before it submits anything ({@link ResubmittedRun#admit}).
 *
 * <p>The job's class loader may be closed by the time the job has ended, so what runs then uses
 * only the JDK and classes loaded when the job started: the jar stays open from the start (the
 * JobManager deletes the job's copy when the job ends), the HTTP requests are built by hand, the
 * worker thread exists from the start. After a global failover (the job is RUNNING again) it does
 * nothing: the new runner has its own. A JobManager that does not take jar submissions ({@code
 * web.submit.enable: false}; application mode) gets an error in its log that says so: the job has
 * failed with the new schema recorded, and the next submission continues with it.
 */
final class SchemaChangeResubmitter {
  /** The Flink configuration key that tells the new program it restarts after a schema change. */
  static final String REQUEST_KEY = "lakestream.schema-change-restart";

  private static final Logger LOG = LoggerFactory.getLogger(SchemaChangeResubmitter.class);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration END_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration HISTORY_WAIT = Duration.ofSeconds(15);
  private static final Set<String> ENDED = Set.of("FAILED", "FINISHED", "CANCELED", "SUSPENDED");
  private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");
  private static final Pattern UPLOADED = Pattern.compile("\"filename\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern JOB_ID = Pattern.compile("\"jobid\"\\s*:\\s*\"([0-9a-f]+)\"");

  private final URI rest;
  private final String jobId;
  private final String queryName;
  private final String runId;
  private final ProgramInvocation program;
  private final FileChannel jar;
  private final HttpClient http;
  private final Thread worker;
  private volatile boolean runCommitted;

  private SchemaChangeResubmitter(
      URI rest, String jobId, String queryName, String runId, ProgramInvocation program, Path jar)
      throws IOException {
    this.rest = rest;
    this.jobId = jobId;
    this.queryName = queryName;
    this.runId = runId;
    this.program = program;
    this.jar = FileChannel.open(jar, StandardOpenOption.READ);
    this.http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    this.worker = new Thread(this::afterEnd, "lakestream-schema-restart-" + queryName);
    this.worker.setDaemon(true);
    // load now what afterEnd needs: the job's class loader may be closed by then
    SchemaChangeFailure.recordedIn("");
    new ResubmittedRun(jobId, runId, List.of(), false).toJson();
  }

  /**
   * A resubmitter for the job {@code jobId}, or empty (with a warning saying why) when the job's
   * classes are not in a jar file, as when the job runs embedded from a class directory.
   */
  static Optional<SchemaChangeResubmitter> open(
      URI rest, String jobId, String queryName, String runId, ProgramInvocation program) {
    Path jar = ownJar();
    if (jar == null || !Files.isRegularFile(jar)) {
      LOG.warn(
          "Query '{}': its classes are not in a jar file ({}), so the JobManager cannot run it"
              + " again after a schema change; submit it again then",
          queryName,
          jar);
      return Optional.empty();
    }
    try {
      SchemaChangeResubmitter resubmitter =
          new SchemaChangeResubmitter(rest, jobId, queryName, runId, program, jar);
      LOG.info(
          "Query '{}': detached; after a schema change the JobManager runs {} again from {}",
          queryName,
          program.entryClass(),
          jar);
      return Optional.of(resubmitter);
    } catch (IOException e) {
      LOG.warn("Query '{}': cannot open its jar {} for a schema-change restart", queryName, jar, e);
      return Optional.empty();
    }
  }

  private static Path ownJar() {
    try {
      return Path.of(
          SchemaChangeResubmitter.class
              .getProtectionDomain()
              .getCodeSource()
              .getLocation()
              .toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The runner has closed: watch the job to its end (in the worker thread).
   *
   * @param committed whether this run committed an epoch
   */
  void runnerClosed(boolean committed) {
    runCommitted = committed;
    worker.start();
  }

  private void afterEnd() {
    try {
      String state = awaitEnd();
      if (!"FAILED".equals(state)) {
        return;
      }
      Optional<List<String>> columns = recordedChange();
      if (columns.isPresent()) {
        resubmit(columns.get());
      } else {
        LOG.info(
            "Query '{}': job {} failed for another reason than a schema change", queryName, jobId);
      }
    } catch (Exception | LinkageError e) {
      LOG.error(
          "Query '{}': could not run it again after its job {} ended; submit it again to continue",
          queryName,
          jobId,
          e);
    } finally {
      try {
        jar.close();
      } catch (IOException e) {
        LOG.debug("closing the jar", e);
      }
    }
  }

  /**
   * The recorded schema change in the failed job's exceptions, if any. The JobManager may list a
   * failure in the job's exception history a moment after the job has FAILED: asked again for up to
   * {@link #HISTORY_WAIT}.
   */
  private Optional<List<String>> recordedChange() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + HISTORY_WAIT.toNanos();
    while (true) {
      String failure = send(get("/jobs/" + jobId + "/exceptions?maxExceptions=1")).body();
      Optional<List<String>> columns = SchemaChangeFailure.recordedIn(failure);
      if (columns.isPresent() || System.nanoTime() > deadline) {
        return columns;
      }
      Thread.sleep(500);
    }
  }

  /** The job's state once it has ended, or {@code RUNNING} once it runs again after a failover. */
  private String awaitEnd() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + END_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      // the job's live status: /jobs/:id answers from a cache, RUNNING for seconds after the end
      Matcher m = STATUS.matcher(send(get("/jobs/" + jobId + "/status")).body());
      String state = m.find() ? m.group(1) : "";
      if (ENDED.contains(state) || "RUNNING".equals(state)) {
        LOG.info("Query '{}': job {} is {} after its runner closed", queryName, jobId, state);
        return state;
      }
      Thread.sleep(250);
    }
    LOG.warn("Query '{}': job {} did not end within {}", queryName, jobId, END_TIMEOUT);
    return "UNKNOWN";
  }

  private void resubmit(List<String> columns) throws IOException, InterruptedException {
    LOG.warn(
        "Query '{}': its input schema changed (columns {}); the new schema is recorded, so the"
            + " JobManager runs its program again (--restart-on-schema-change=false turns this"
            + " off)",
        queryName,
        columns);
    HttpResponse<String> uploaded = send(upload());
    Matcher file = UPLOADED.matcher(uploaded.body());
    if (uploaded.statusCode() / 100 != 2 || !file.find()) {
      LOG.error(
          "Query '{}': the JobManager did not take its jar for the schema-change restart ({} {});"
              + " it takes jar submissions only on a session cluster with web.submit.enable: true."
              + " The job failed with the new schema recorded: submit it again to continue.",
          queryName,
          uploaded.statusCode(),
          firstLine(uploaded.body()));
      return;
    }
    String jarId = file.group(1).substring(file.group(1).lastIndexOf('/') + 1);
    try {
      ResubmittedRun request = new ResubmittedRun(jobId, runId, columns, runCommitted);
      HttpResponse<String> run = send(runRequest(jarId, request));
      Matcher started = JOB_ID.matcher(run.body());
      if (run.statusCode() / 100 == 2 && started.find()) {
        LOG.info(
            "Query '{}': restarted after the schema change of columns {} as job {}",
            queryName,
            columns,
            started.group(1));
      } else {
        LOG.error(
            "Query '{}': the JobManager could not run it again after the schema change of columns"
                + " {} (HTTP {}): {}. The reason is in this log above (the program ran here); the"
                + " job failed with the new schema recorded: submit it again to continue.",
            queryName,
            columns,
            run.statusCode(),
            firstLine(run.body()));
      }
    } finally {
      send(delete("/jars/" + jarId));
    }
  }

  private HttpRequest upload() throws IOException {
    String boundary = "lakestream-" + UUID.randomUUID();
    byte[] head =
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\"lakestream.jar\""
                + "\r\nContent-Type: application/x-java-archive\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    long size = jar.size();
    jar.position(0);
    InputStream content = Channels.newInputStream(jar);
    HttpRequest.BodyPublisher body =
        HttpRequest.BodyPublishers.concat(
            HttpRequest.BodyPublishers.ofByteArray(head),
            HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> content), size),
            HttpRequest.BodyPublishers.ofByteArray(tail));
    return HttpRequest.newBuilder(rest.resolve("/jars/upload"))
        .timeout(RUN_TIMEOUT)
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(body)
        .build();
  }

  private HttpRequest runRequest(String jarId, ResubmittedRun request) {
    StringBuilder args = new StringBuilder();
    for (String arg : program.args()) {
      args.append(args.length() == 0 ? "" : ",").append(ResubmittedRun.quote(arg));
    }
    String body =
        "{\"entryClass\":"
            + ResubmittedRun.quote(program.entryClass())
            + ",\"programArgsList\":["
            + args
            + "],\"flinkConfiguration\":{"
            + ResubmittedRun.quote(REQUEST_KEY)
            + ":"
            + ResubmittedRun.quote(request.toJson())
            + "}}";
    return HttpRequest.newBuilder(rest.resolve("/jars/" + jarId + "/run"))
        .timeout(RUN_TIMEOUT)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(rest.resolve(path)).timeout(REQUEST_TIMEOUT).GET().build();
  }

  private HttpRequest delete(String path) {
    return HttpRequest.newBuilder(rest.resolve(path)).timeout(REQUEST_TIMEOUT).DELETE().build();
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String firstLine(String text) {
    int end = text.indexOf("\\n");
    String line = end < 0 ? text : text.substring(0, end);
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }
}
