package io.lakestream.connectors.lakebase.sink;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.StagingTable;
import io.lakestream.connectors.lakebase.sink.writer.LakebaseCommitRecords;
import io.lakestream.connectors.lakebase.sink.writer.StagedEpoch;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies staged epochs once their checkpoint completed (Flink calls {@link #commit} from {@code
 * notifyCheckpointComplete}, and again on restore for epochs whose commit was not acknowledged):
 * each in ONE PostgreSQL transaction that also records it, so an epoch already applied is skipped
 * ({@link StagingTable#apply}). Oldest first. A failure is not retried here: it fails the job,
 * which restores from the last checkpoint and applies the epoch again.
 */
@Internal
final class LakebaseCommitter implements Committer<StagedEpoch> {
  private static final Logger LOG = LoggerFactory.getLogger(LakebaseCommitter.class);

  private final PostgresEndpoint endpoint;
  private final StagingTable staging;
  private final LakebaseCommitRecords records; // null: none
  private Connection connection;

  LakebaseCommitter(
      PostgresEndpoint endpoint, StagingTable staging, LakebaseCommitRecords records) {
    this.endpoint = endpoint;
    this.staging = staging;
    this.records = records;
  }

  @Override
  public void commit(Collection<CommitRequest<StagedEpoch>> requests)
      throws IOException, InterruptedException {
    List<CommitRequest<StagedEpoch>> ordered = new ArrayList<>(requests);
    ordered.sort(Comparator.comparingLong(r -> r.getCommittable().tag().afterCheckpoint()));
    for (CommitRequest<StagedEpoch> request : ordered) {
      StagedEpoch epoch = request.getCommittable();
      try {
        if (connection == null || connection.isClosed()) {
          connection = endpoint.connect();
        }
        boolean applied = staging.apply(connection, epoch.tag(), epoch.rows(), epoch.deletes());
        if (!applied) {
          request.signalAlreadyCommitted();
        }
        LOG.debug("{} -> {}", epoch, applied ? "applied" : "already applied");
        if (records != null) { // again for an epoch applied before a restore: it may be missing
          records.record(epoch.tag().epoch(), epoch.tag().subtask(), epoch.rows());
        }
      } catch (SQLException e) {
        closeQuietly();
        throw new IOException(
            "cannot apply epoch "
                + epoch.tag().epoch()
                + " of sink subtask "
                + epoch.tag().subtask()
                + " to "
                + staging.stage()
                + "'s target: "
                + e.getMessage(),
            e);
      }
    }
  }

  private void closeQuietly() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      LOG.debug("closing the committer's connection", e);
    }
    connection = null;
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
