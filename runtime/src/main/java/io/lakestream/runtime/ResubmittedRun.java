package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.SchemaRestartLog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the JobManager tells a program it runs again after a schema change ({@link
 * SchemaChangeResubmitter}), in the Flink configuration of that run: the job that failed, its run,
 * the changed columns and whether that run committed an epoch. The new program applies the restart
 * bounds ({@link SchemaRestartBudget}) against the query's {@code schema-restarts} before it
 * submits anything: a refused restart fails the program with {@code
 * QUERY_SCHEMA_CHANGE_RESTART_REFUSED}, logged on the JobManager.
 *
 * @param failedJob the id of the job that failed
 * @param failedRun the run id of that job
 * @param columns the columns whose change failed it
 * @param runCommitted whether that run committed an epoch
 */
record ResubmittedRun(
    String failedJob, String failedRun, List<String> columns, boolean runCommitted) {
  private static final Logger LOG = LoggerFactory.getLogger(ResubmittedRun.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  ResubmittedRun {
    columns = List.copyOf(columns);
  }

  /** The request in the configuration of this program's run, if the JobManager made one. */
  static Optional<ResubmittedRun> requested(ReadableConfig flink) throws IOException {
    Optional<String> json =
        flink.getOptional(
            ConfigOptions.key(SchemaChangeResubmitter.REQUEST_KEY).stringType().noDefaultValue());
    if (json.isEmpty()) {
      return Optional.empty();
    }
    JsonNode node = MAPPER.readTree(json.get());
    List<String> columns = new ArrayList<>();
    node.path("columns").forEach(c -> columns.add(c.asText()));
    return Optional.of(
        new ResubmittedRun(
            node.path("failedJob").asText(),
            node.path("failedRun").asText(),
            columns,
            node.path("runCommitted").asBoolean()));
  }

  /**
   * Records this restart in {@code location}'s {@code schema-restarts}, or refuses it.
   *
   * @throws LakestreamException {@code QUERY_SCHEMA_CHANGE_RESTART_REFUSED} when the bounds say no
   */
  void admit(String queryName, SchemaChangeRestarts policy, CheckpointLocation location)
      throws IOException {
    Instant now = Instant.now();
    SchemaRestartLog log = location.readSchemaRestarts();
    Optional<String> refusal =
        new SchemaRestartBudget(queryName, policy).refusal(log, columns, runCommitted, now);
    if (refusal.isPresent()) {
      LOG.error(
          "Query '{}': not restarted after the failure of job {}: {}",
          queryName,
          failedJob,
          refusal.get());
      throw new LakestreamException(
          QueryErrorClass.QUERY_SCHEMA_CHANGE_RESTART_REFUSED, refusal.get());
    }
    SchemaRestartLog next = SchemaRestartBudget.withRestart(log, columns, now);
    location.writeSchemaRestarts(next);
    LOG.warn(
        "Query '{}': its input schema changed (columns {}) and job {} failed; the new schema is"
            + " recorded, so the query is rebuilt and restarted from its checkpoint (restart {} of"
            + " at most {} per hour; --restart-on-schema-change=false turns this off)",
        queryName,
        columns,
        failedJob,
        next.restartMillis().size(),
        policy.maxPerHour());
  }

  /** This request as JSON, written with the JDK only (see {@link SchemaChangeResubmitter}). */
  String toJson() {
    StringBuilder list = new StringBuilder();
    for (String c : columns) {
      list.append(list.length() == 0 ? "" : ",").append(quote(c));
    }
    return "{\"failedJob\":"
        + quote(failedJob)
        + ",\"failedRun\":"
        + quote(failedRun)
        + ",\"columns\":["
        + list
        + "],\"runCommitted\":"
        + runCommitted
        + "}";
  }

  /** {@code s} as a JSON string. */
  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
