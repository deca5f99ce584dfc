package io.lakestream.pipelines.jdbc;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.jdbc.JdbcRecord;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.types.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each partition of a JDBC read into Parquet files of a Delta table and, at the partition's
 * end, commits them as one Delta version carrying the txn {@code (<txnAppId>-p<i>of<n>,
 * txnVersion)}. A partition whose txn the table already holds at that version or later is skipped,
 * so a restore (which re-reads partitions that had not ended at the checkpoint), a rerun of the
 * same run, or two runs racing never add a partition twice; a partition ends only after all its
 * rows, so it is never committed in part. Files of an attempt that failed before its commit are
 * never in the table (VACUUM removes them).
 *
 * <p>Holds no Flink state: what is not committed is read again. Rows are buffered as columns and
 * written out whenever a partition's buffer passes {@code flushBytes}.
 */
@Internal
final class PartitionCommitSink implements Sink<Row> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCommitSink.class);

  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final String txnAppId;
  private final long txnVersion;
  private final long flushBytes;

  PartitionCommitSink(
      DeltaTable table,
      DeltaTableSchema schema,
      String txnAppId,
      long txnVersion,
      long flushBytes) {
    this.table = table;
    this.schema = schema;
    this.txnAppId = txnAppId;
    this.txnVersion = txnVersion;
    this.flushBytes = flushBytes;
  }

  /** The txn app id of partition {@code partition} of {@code partitions}. */
  static String appId(String txnAppId, int partition, int partitions) {
    return txnAppId + "-p" + partition + "of" + partitions;
  }

  @Override
  public SinkWriter<Row> createWriter(WriterInitContext context) {
    return new Writer();
  }

  /** Flink before 1.19's entry point; Flink 1.20 calls {@link #createWriter(WriterInitContext)}. */
  @Override
  @Deprecated
  @SuppressWarnings("deprecation")
  public SinkWriter<Row> createWriter(InitContext context) {
    return new Writer();
  }

  /** One partition being written: its writer, the files already written, the rows so far. */
  private static final class Pending {
    final DeltaTableWriter writer;
    final List<DeltaWrittenFile> files = new ArrayList<>();
    long rows;

    Pending(DeltaTableWriter writer) {
      this.writer = writer;
    }
  }

  private final class Writer implements SinkWriter<Row> {
    private final Map<Integer, Pending> open = new HashMap<>();

    @Override
    public void write(Row row, Context context) {
      JdbcRecord record = JdbcRecord.of(row);
      Pending pending =
          open.computeIfAbsent(
              record.partition(), p -> new Pending(new DeltaTableWriter(table, schema)));
      if (record.isPartitionEnd()) {
        commit(record, pending);
        return;
      }
      pending.writer.append(record.values());
      pending.rows++;
      if (pending.writer.bufferedBytes() >= flushBytes) {
        pending.files.addAll(pending.writer.flush());
      }
    }

    private void commit(JdbcRecord end, Pending pending) {
      open.remove(end.partition());
      if (pending.rows != end.rows()) {
        throw new IllegalStateException(
            "partition "
                + end.partition()
                + " ended after "
                + end.rows()
                + " rows but "
                + pending.rows
                + " arrived here: the writer must be chained to the source");
      }
      pending.files.addAll(pending.writer.flush());
      String appId = appId(txnAppId, end.partition(), end.partitions());
      EpochCommitOutcome outcome =
          new DeltaAppendCommit(table, schema, appId).commit(txnVersion, pending.files);
      LOG.info(
          "Partition {} of {} ({} rows) into {}: {} (txn {} version {})",
          end.partition(),
          end.partitions(),
          end.rows(),
          table.path(),
          outcome.status(),
          appId,
          txnVersion);
    }

    @Override
    public void flush(boolean endOfInput) {
      // Partitions commit at their end; one still open is read again after a restore.
    }

    @Override
    public void close() {
      open.values().forEach(p -> p.writer.discardBuffered());
      open.clear();
    }
  }
}
