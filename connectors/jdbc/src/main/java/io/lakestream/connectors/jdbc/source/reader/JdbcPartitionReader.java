package io.lakestream.connectors.jdbc.source.reader;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.jdbc.JdbcColumns;
import io.lakestream.connectors.jdbc.JdbcErrorClass;
import io.lakestream.connectors.jdbc.JdbcRecord;
import io.lakestream.connectors.jdbc.JdbcSourceConfig;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.source.SplitCaughtUp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the partitions it is given one at a time, each with its own connection and query: up to
 * {@code rowsPerPoll} rows per poll (JDBC fetches {@code fetchsize} per round trip), then the
 * partition's end. It asks the enumerator for the next partition when it has none.
 *
 * <p>Checkpoints hold the partition being read and those queued, never a position inside a
 * partition: after a restore a partition is read again from its first row, and since its end only
 * follows a complete read, a writer that commits partitions at their end commits each once. When
 * told there are no more partitions and done with its own, it reports {@link SplitCaughtUp} ({@code
 * reader-<subtask>}); then it ends its input when {@code endOfInput} (a job outside a query), or
 * idles (a query, stopped by its availableNow runner).
 *
 * <p>Failures: an {@link SQLException} fails the task with {@code JDBC_SOURCE_READ_FAILED} naming
 * the relation and partition (never the URL's secrets, which it cannot hold).
 */
@Internal
public final class JdbcPartitionReader implements SourceReader<Row, JdbcPartitionSplit> {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcPartitionReader.class);

  /** Rows emitted per {@link #pollNext} call before yielding to checkpoints and mail. */
  public static final int DEFAULT_ROWS_PER_POLL = 500;

  private final SourceReaderContext context;
  private final JdbcSourceConfig config;
  private final RowSchema schema;
  private final boolean endOfInput;
  private final int rowsPerPoll;
  private final Deque<JdbcPartitionSplit> queued = new ArrayDeque<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private JdbcPartitionSplit current;
  private Connection connection;
  private PreparedStatement statement;
  private ResultSet rows;
  private long rowsRead;
  private boolean requested;
  private boolean noMoreSplits;
  private boolean caughtUpSent;

  public JdbcPartitionReader(
      SourceReaderContext context,
      JdbcSourceConfig config,
      RowSchema schema,
      boolean endOfInput,
      int rowsPerPoll) {
    this.context = context;
    this.config = config;
    this.schema = schema;
    this.endOfInput = endOfInput;
    this.rowsPerPoll = rowsPerPoll;
  }

  @Override
  public void start() {
    requestIfIdle();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Row> output) {
    if (current == null && !openNext()) {
      return idle();
    }
    try {
      for (int n = 0; n < rowsPerPoll; n++) {
        if (!rows.next()) {
          output.collect(
              JdbcRecord.partitionEnd(
                  current.partition(), current.partitions(), rowsRead, schema.size()));
          LOG.info(
              "Read partition {} of {} of {}: {} rows",
              current.partition(),
              current.partitions(),
              config.describe(),
              rowsRead);
          closeCurrent();
          current = null;
          return InputStatus.MORE_AVAILABLE;
        }
        rowsRead++;
        output.collect(
            JdbcRecord.row(
                current.partition(), current.partitions(), JdbcColumns.read(rows, schema)));
      }
      return InputStatus.MORE_AVAILABLE;
    } catch (SQLException e) {
      throw readFailed(e);
    }
  }

  private boolean openNext() {
    current = queued.poll();
    if (current == null) {
      return false;
    }
    rowsRead = 0;
    connection = config.connect();
    try {
      statement = connection.prepareStatement(config.select(current));
      statement.setFetchSize(config.fetchSize());
      rows = statement.executeQuery();
      return true;
    } catch (SQLException e) {
      throw readFailed(e);
    }
  }

  private InputStatus idle() {
    if (!noMoreSplits) {
      requestIfIdle();
      return InputStatus.NOTHING_AVAILABLE;
    }
    if (!caughtUpSent) {
      caughtUpSent = true;
      context.sendSourceEventToCoordinator(
          new SplitCaughtUp("reader-" + context.getIndexOfSubtask()));
    }
    return endOfInput ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
  }

  private void requestIfIdle() {
    if (!requested && current == null && queued.isEmpty() && !noMoreSplits) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  private LakestreamException readFailed(SQLException e) {
    return new LakestreamException(
        JdbcErrorClass.JDBC_SOURCE_READ_FAILED,
        "Cannot read partition "
            + current.partition()
            + " of "
            + current.partitions()
            + " of "
            + config.describe()
            + ": "
            + e.getMessage()
            + " (SQLState "
            + e.getSQLState()
            + "); the partition is read again from its start after the restart",
        e);
  }

  @Override
  public List<JdbcPartitionSplit> snapshotState(long checkpointId) {
    List<JdbcPartitionSplit> splits = new ArrayList<>();
    if (current != null) {
      splits.add(current);
    }
    splits.addAll(queued);
    return splits;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return current != null || !queued.isEmpty()
        ? CompletableFuture.completedFuture(null)
        : available;
  }

  @Override
  public void addSplits(List<JdbcPartitionSplit> splits) {
    queued.addAll(splits);
    requested = false;
    wakeUp();
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    wakeUp();
  }

  private void wakeUp() {
    CompletableFuture<Void> waiting = available;
    available = new CompletableFuture<>();
    waiting.complete(null);
  }

  @Override
  public void close() throws Exception {
    closeCurrent();
  }

  private void closeCurrent() {
    try (Connection c = connection;
        PreparedStatement s = statement;
        ResultSet r = rows) {
      if (c != null && !c.isClosed()) {
        c.rollback(); // read-only: nothing to keep
      }
    } catch (SQLException e) {
      LOG.warn("Could not close the connection reading {}", config.describe(), e);
    } finally {
      connection = null;
      statement = null;
      rows = null;
    }
  }
}
