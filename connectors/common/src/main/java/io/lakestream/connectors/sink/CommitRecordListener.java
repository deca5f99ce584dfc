package io.lakestream.connectors.sink;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each committed epoch of a sink in the query's checkpoint location ({@code
 * commits/N/SINK}), where the runner picks it up for progress. A failure to write is logged and
 * ignored: the commit itself already happened and correctness never depends on this record.
 */
@Internal
public final class CommitRecordListener implements EpochListener {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CommitRecordListener.class);

  private final String checkpointLocation;
  private final String sinkName;
  private final String description;
  private final String recordName;

  /**
   * @param query the query the sink belongs to
   * @param sinkName the sink's name (its uid)
   * @param description the sink for people, e.g. {@code DeltaSink[s3://bucket/silver]}
   */
  public CommitRecordListener(QueryContext query, String sinkName, String description) {
    this(query.checkpointLocation(), sinkName, description, sinkName);
  }

  /**
   * A listener of one part of a sink that commits in parallel (one per subtask): its records are
   * {@code commits/N/RECORDNAME}, all naming {@code sinkName} in their {@code sink} field, and the
   * runner adds up the parts of a sink.
   *
   * @param checkpointLocation the query's checkpoint location
   * @param recordName the record's file name, unique per part
   */
  public CommitRecordListener(
      String checkpointLocation, String sinkName, String description, String recordName) {
    this.checkpointLocation = checkpointLocation;
    this.sinkName = sinkName;
    this.description = description;
    this.recordName = recordName;
  }

  @Override
  public void onEpochCommitted(EpochCommitOutcome outcome, long watermark) {
    write(outcome, watermark, null);
  }

  /**
   * Records the commit with {@code commitDurationMs}, progress's {@code durationMs.commitOffsets}.
   */
  @Override
  public void onEpochCommitted(EpochCommitOutcome outcome, long watermark, long commitMillis) {
    write(outcome, watermark, commitMillis);
  }

  private void write(EpochCommitOutcome outcome, long watermark, Long commitMillis) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("sink", sinkName);
    record.put("description", description);
    record.put("epoch", outcome.epoch());
    record.put("status", outcome.status().name());
    record.put("numOutputRows", outcome.numRows());
    record.put("numFiles", outcome.numFiles());
    record.put("numBytes", outcome.numBytes());
    record.put("watermark", watermark == Long.MIN_VALUE ? null : Instant.ofEpochMilli(watermark));
    record.put("committedAt", Instant.now().toString());
    if (commitMillis != null) {
      record.put("commitDurationMs", commitMillis);
    }
    record.put("detail", outcome.detail());
    try {
      new CheckpointLocation(URI.create(checkpointLocation))
          .epochs()
          .writeCommit(outcome.epoch(), recordName, stringify(record));
    } catch (IOException e) {
      LOG.warn("Could not record the commit of epoch {} for sink {}", outcome.epoch(), sinkName, e);
    }
  }

  private static Map<String, Object> stringify(Map<String, Object> record) {
    Object wm = record.get("watermark");
    if (wm != null) {
      record.put("watermark", wm.toString());
    }
    return record;
  }
}
