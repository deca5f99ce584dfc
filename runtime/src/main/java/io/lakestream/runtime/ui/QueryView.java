package io.lakestream.runtime.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.QueryLease;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.QueryMetadata;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * What the page shows of one checkpoint location, as JSON: the query's name, id, run and app id,
 * trigger (when a run in this JVM told it), location, restart-matrix fingerprint, whether a run
 * holds the location now, and its retained {@code progress/N} reports, oldest first. Everything
 * passes through {@link Redaction}.
 */
final class QueryView {
  /** At most this many reports are shown: the newest ones (the location retains 100). */
  static final int MAX_REPORTS = 100;

  private final ObjectMapper mapper;

  QueryView(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The list entry of a location: who it is and its latest report, no history. */
  ObjectNode summary(String key, CheckpointLocation location, QueryPage.LiveRun live)
      throws IOException {
    ObjectNode q = header(key, location, live);
    EpochLog epochs = location.epochs();
    List<Long> reported = epochs.progressEpochs();
    Optional<JsonNode> last =
        reported.isEmpty()
            ? Optional.empty()
            : epochs.readProgress(reported.get(reported.size() - 1));
    last.ifPresent(p -> q.set("latest", Redaction.redact(p)));
    return q;
  }

  /** The whole view of a location: its header, fingerprint and reports. */
  ObjectNode detail(String key, CheckpointLocation location, QueryPage.LiveRun live)
      throws IOException {
    ObjectNode q = header(key, location, live);
    location
        .readMetadata()
        .ifPresent(
            m -> {
              q.set("fingerprint", Redaction.redact(mapper.valueToTree(m.fingerprint())));
              q.put("createdAt", m.createdAt());
            });
    ArrayNode progress = q.putArray("progress");
    EpochLog epochs = location.epochs();
    List<Long> reported = epochs.progressEpochs();
    for (long epoch :
        reported.subList(Math.max(0, reported.size() - MAX_REPORTS), reported.size())) {
      epochs.readProgress(epoch).ifPresent(p -> progress.add(Redaction.redact(p)));
    }
    return q;
  }

  private ObjectNode header(String key, CheckpointLocation location, QueryPage.LiveRun live)
      throws IOException {
    ObjectNode q = mapper.createObjectNode();
    q.put("key", key);
    q.put("location", Redaction.redact(location.toString()));
    Optional<QueryMetadata> metadata = location.readMetadata();
    metadata.ifPresent(
        m -> {
          q.put("name", m.queryName());
          q.put("id", m.queryId());
          q.put("runId", m.lastRunId());
          q.put("appId", QueryContext.appIdFor(m.queryName(), m.queryId()));
        });
    boolean active = QueryLease.isHeld(location);
    if (live != null && live.runId().equals(q.path("runId").asText(live.runId()))) {
      q.put("runId", live.runId());
      q.put("appId", live.appId());
      q.put("trigger", live.trigger());
      active = live.active().getAsBoolean();
    }
    q.put("active", active);
    return q;
  }
}
