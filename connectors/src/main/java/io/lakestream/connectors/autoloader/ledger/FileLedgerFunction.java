package io.lakestream.connectors.autoloader.ledger;

import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.format.FileRowReader;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.state.query.DeclaresStateSchema;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The discovered-file ledger and file reader, keyed by the file's key (path relative to the input
 * directory). A file whose key is in the ledger was read before and is dropped; otherwise its rows
 * are emitted and the key is entered with the file's modification time.
 *
 * <p>The ledger is Flink keyed state (one {@code Long} per file, {@code LongSerializer}; with the
 * RocksDB backend on disk, not on the heap), checkpointed with the rest of the query. A file's rows
 * are all emitted within one {@code processElement} call, so no checkpoint barrier falls inside a
 * file: after a restore every file before the checkpoint is in the ledger and its rows are in the
 * checkpointed epoch, every file after it is discovered again (its key not in the ledger) and read
 * in full. Files rediscovered by a backfill listing or a restarted availableNow run are dropped
 * here, so each file is read exactly once per query.
 *
 * <p>A file with new columns ({@link UnknownFieldException}) fails the job without Flink restarts
 * ({@link SuppressRestartsException}): only a rebuilt query has the new schema.
 */
public final class FileLedgerFunction extends KeyedProcessFunction<String, DiscoveredFile, Row>
    implements DeclaresStateSchema {
  private static final long serialVersionUID = 1L;

  /** The ledger state's name. */
  public static final String LEDGER_STATE = "file-ledger";

  private final FileRowReader reader;
  private transient ValueState<Long> ledger;
  private transient Counter filesRead;
  private transient Counter filesSkipped;
  private transient Counter rowsRead;

  public FileLedgerFunction(FileRowReader reader) {
    this.reader = reader;
  }

  @Override
  public String stateSchema() {
    return LEDGER_STATE + ": ValueState<Long> (file modification time); v1";
  }

  @Override
  public void open(Configuration parameters) {
    ledger = getRuntimeContext().getState(new ValueStateDescriptor<>(LEDGER_STATE, Types.LONG));
    filesRead = getRuntimeContext().getMetricGroup().counter("numFilesRead");
    filesSkipped = getRuntimeContext().getMetricGroup().counter("numFilesAlreadyProcessed");
    rowsRead = getRuntimeContext().getMetricGroup().counter("numRowsRead");
  }

  @Override
  public void processElement(DiscoveredFile file, Context ctx, Collector<Row> out)
      throws Exception {
    if (ledger.value() != null) {
      filesSkipped.inc();
      return;
    }
    long rows;
    try {
      rows = reader.read(file, out::collect);
    } catch (UnknownFieldException e) {
      // a restart with the same job graph has the same schema and would fail again: the query
      // must be rebuilt, which reads the recorded schema
      throw new SuppressRestartsException(e);
    }
    ledger.update(file.modificationTime);
    filesRead.inc();
    rowsRead.inc(rows);
  }
}
