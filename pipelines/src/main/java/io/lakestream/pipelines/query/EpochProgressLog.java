package io.lakestream.pipelines.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.connectors.sink.EpochListener;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one progress line per committed epoch and sink, as JSON in the shape of Structured
 * Streaming's {@code StreamingQueryProgress} (the fields a sink can know: {@code name, batchId,
 * timestamp, numOutputRows, processedRowsPerSecond, sink}). Logger: {@code io.lakestream.progress}.
 */
public final class EpochProgressLog implements EpochListener {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger("io.lakestream.progress");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String queryName;
  private final String sinkDescription;
  private transient long lastCommitNanos;
  private transient long totalRows;

  public EpochProgressLog(String queryName, String sinkDescription) {
    this.queryName = queryName;
    this.sinkDescription = sinkDescription;
  }

  @Override
  public void onEpochCommitted(EpochCommitOutcome outcome) {
    long now = System.nanoTime();
    long elapsedMs = lastCommitNanos == 0 ? 0 : (now - lastCommitNanos) / 1_000_000;
    lastCommitNanos = now;
    if (outcome.status() == EpochCommitOutcome.Status.COMMITTED) {
      totalRows += outcome.numRows();
    }
    ObjectNode progress = MAPPER.createObjectNode();
    progress.put("name", queryName);
    progress.put("batchId", outcome.epoch());
    progress.put("timestamp", Instant.now().toString());
    progress.put("numOutputRows", outcome.numRows());
    progress.put(
        "processedRowsPerSecond", elapsedMs == 0 ? 0.0 : outcome.numRows() * 1000.0 / elapsedMs);
    progress.putObject("durationMs").put("sinceLastCommit", elapsedMs);
    ObjectNode sink = progress.putObject("sink");
    sink.put("description", sinkDescription);
    sink.put("status", outcome.status().name());
    sink.put("numOutputRows", outcome.numRows());
    sink.put("numFiles", outcome.numFiles());
    sink.put("numBytes", outcome.numBytes());
    sink.put("totalRowsCommitted", totalRows);
    LOG.info("{}", progress);
  }
}
