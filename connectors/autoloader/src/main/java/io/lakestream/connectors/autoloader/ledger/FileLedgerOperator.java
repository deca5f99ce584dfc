package io.lakestream.connectors.autoloader.ledger;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.state.query.InputRowCount;
import io.lakestream.state.query.QueryContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.types.Row;

/**
 * Runs a {@link FileLedgerFunction}; on a restore with {@code cloudFiles.maxFileAge} set, it walks
 * the ledger once and registers each entry's expiry timer, so that entries written without expiry
 * (state of an earlier version, or of a run without a max age) or under another max age expire too.
 * Registering a timer that exists is a no-op; the walk reads every entry once per restore.
 */
@Internal
public final class FileLedgerOperator extends KeyedProcessOperator<String, DiscoveredFile, Row> {
  private static final long serialVersionUID = 1L;

  /** The timer service's name in {@link KeyedProcessOperator}. */
  private static final String TIMERS = "user-timers";

  private final FileLedgerFunction ledger;
  private final QueryContext query;
  private final String sourceName;
  private transient boolean restored;
  private transient long entriesRestored;
  private transient InputRowCount inputRows;

  public FileLedgerOperator(FileLedgerFunction ledger) {
    this(ledger, null, null);
  }

  /**
   * A ledger whose rows count as the input rows of source {@code sourceName} in {@code query}'s
   * progress (the source's own positions count files).
   */
  public FileLedgerOperator(FileLedgerFunction ledger, QueryContext query, String sourceName) {
    super(ledger);
    this.ledger = ledger;
    this.query = query;
    this.sourceName = sourceName;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    inputRows.add(ledger.takeRowsEmitted());
    inputRows.record(context.getCheckpointId());
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    restored = context.isRestored();
  }

  @Override
  public void open() throws Exception {
    super.open();
    var task = getRuntimeContext().getTaskInfo();
    inputRows =
        new InputRowCount(
            query,
            sourceName,
            task.getIndexOfThisSubtask(),
            task.getNumberOfParallelSubtasks(),
            task.getAttemptNumber());
    if (restored && ledger.maxFileAgeMillis() > 0) {
      scheduleRestoredExpiries();
      ledger.restoredEntries(entriesRestored);
    }
  }

  /** The number of entries the last restore walked (0 without a max age). */
  long entriesRestored() {
    return entriesRestored;
  }

  /** The number of files in this subtask's ledger; reads every entry. */
  long ledgerSize() {
    try (var keys =
        this.<String>getKeyedStateBackend()
            .getKeys(FileLedgerFunction.LEDGER_STATE, VoidNamespace.INSTANCE)) {
      return keys.count();
    }
  }

  private void scheduleRestoredExpiries() throws Exception {
    InternalTimerService<VoidNamespace> timers =
        getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this);
    this.<String>getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            new ValueStateDescriptor<>(FileLedgerFunction.LEDGER_STATE, Types.LONG),
            (String key, ValueState<Long> entry) -> {
              Long modificationTime = entry.value();
              if (modificationTime != null) {
                timers.registerProcessingTimeTimer(
                    VoidNamespace.INSTANCE, ledger.expiryTime(modificationTime));
                entriesRestored++;
              }
            });
  }
}
