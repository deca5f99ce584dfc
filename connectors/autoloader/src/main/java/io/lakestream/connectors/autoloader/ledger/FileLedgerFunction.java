package io.lakestream.connectors.autoloader.ledger;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.clean.CleanupEntry;
import io.lakestream.connectors.autoloader.clean.SourceCleaner;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.format.CorruptFileException;
import io.lakestream.connectors.autoloader.format.FileRowReader;
import io.lakestream.connectors.autoloader.schema.MalformedRecordException;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.state.query.DeclaresStateSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>cleanSource (a {@link SourceCleaner} given): each file read is remembered with the checkpoint
 * whose epoch read it, in the operator list state {@value #CLEAN_STATE}. When that checkpoint
 * completes, the file's rows are committed (after a restore: the restored checkpoint completed);
 * once the commit is older than the retention the file is deleted or moved, at a checkpoint
 * completion (at most {@value #CLEANS_PER_CHECKPOINT} files each time). A file is never cleaned
 * before its rows are committed; a failed clean is logged and tried again at a later checkpoint,
 * and never fails the query. The waiting files live on the heap until cleaned.
 *
 * <p>Expiry ({@code cloudFiles.maxFileAge}, as Databricks does): an entry is evicted once its
 * file's modification time is more than the max age ago, by a processing-time timer at {@link
 * #expiryTime}, so the ledger holds the files modified within the max age (one entry and one timer
 * each). The ledger applies the listing's age rule itself, on its own clock: a file not in the
 * ledger whose modification time is more than the max age ago is not read (logged, counted in
 * {@code numFilesExpired}). An entry is only evicted when that rule already refuses its file, so a
 * file that reappears after its entry expired is never read twice. Entries restored from state
 * written without expiry get their timers when the operator opens ({@link FileLedgerOperator}).
 *
 * <p>A file with new columns ({@link UnknownFieldException}) fails the job without Flink restarts
 * ({@link SuppressRestartsException}): only a rebuilt query has the new schema. So do a malformed
 * record without a rescued data column ({@link MalformedRecordException}) and a corrupt file
 * ({@link CorruptFileException}), which a restart would only read again; with {@code
 * ignoreCorruptFiles} a corrupt file is instead logged, counted in {@code numSkippedCorruptFiles}
 * and entered in the ledger, keeping the rows read before the damage.
 */
@Internal
public final class FileLedgerFunction extends KeyedProcessFunction<String, DiscoveredFile, Row>
    implements DeclaresStateSchema, CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FileLedgerFunction.class);

  /** The ledger state's name. */
  public static final String LEDGER_STATE = "file-ledger";

  /** The operator state of files waiting to be cleaned (cleanSource only). */
  public static final String CLEAN_STATE = "clean-source";

  static final int CLEANS_PER_CHECKPOINT = 1_000;

  private final FileRowReader reader;
  private final SourceCleaner cleaner;
  private final boolean withFileMetadata;
  private final long maxFileAgeMillis;
  private transient long rowsEmitted;
  private transient ListState<CleanupEntry> cleanState;
  private transient List<String> readThisEpoch;
  private transient List<CleanupEntry> toClean;
  private transient Counter filesCleaned;
  private transient ValueState<Long> ledger;
  private transient Counter filesRead;
  private transient Counter filesSkipped;
  private transient Counter rowsRead;
  private transient Counter filesSkippedCorrupt;
  private transient Counter filesExpired;
  private transient Counter entriesEvicted;
  private transient long entries;

  /** The rows emitted since the previous call (progress's input rows of an epoch). */
  long takeRowsEmitted() {
    long rows = rowsEmitted;
    rowsEmitted = 0;
    return rows;
  }

  public FileLedgerFunction(FileRowReader reader) {
    this(reader, null);
  }

  /**
   * @param cleaner deletes or moves files after their commit and the retention; null for
   *     cleanSource OFF
   */
  public FileLedgerFunction(FileRowReader reader, SourceCleaner cleaner) {
    this(reader, cleaner, false);
  }

  /**
   * @param withFileMetadata whether each row ends with its file's {@link FileMetadata} fields
   */
  public FileLedgerFunction(FileRowReader reader, SourceCleaner cleaner, boolean withFileMetadata) {
    this(reader, cleaner, withFileMetadata, 0);
  }

  /**
   * @param maxFileAgeMillis entries are evicted and files not read once their modification time is
   *     more than this ago; 0 = entries never expire
   */
  public FileLedgerFunction(
      FileRowReader reader,
      SourceCleaner cleaner,
      boolean withFileMetadata,
      long maxFileAgeMillis) {
    this.reader = reader;
    this.cleaner = cleaner;
    this.withFileMetadata = withFileMetadata;
    this.maxFileAgeMillis = maxFileAgeMillis;
  }

  /** The max age in milliseconds; 0 = entries never expire. */
  public long maxFileAgeMillis() {
    return maxFileAgeMillis;
  }

  /**
   * When the entry of a file modified at {@code modificationTime} is evicted: the first instant at
   * which the file is more than the max age old.
   */
  public long expiryTime(long modificationTime) {
    return modificationTime + maxFileAgeMillis + 1;
  }

  /** Whether a file modified at {@code modificationTime} is too old to read at {@code now}. */
  private boolean expired(long modificationTime, long now) {
    return maxFileAgeMillis > 0 && now >= expiryTime(modificationTime);
  }

  /**
   * The expiry timers are not part of the declared schema: the ledger's state is unchanged, and
   * state written without them restores (the operator adds them).
   */
  @Override
  public String stateSchema() {
    String ledgerSchema = LEDGER_STATE + ": ValueState<Long> (file modification time); v1";
    return cleaner == null
        ? ledgerSchema
        : ledgerSchema + "; " + CLEAN_STATE + ": operator ListState<CleanupEntry>; v1";
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    readThisEpoch = new ArrayList<>();
    toClean = new ArrayList<>();
    if (cleaner == null) {
      return;
    }
    cleanState =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(CLEAN_STATE, TypeInformation.of(CleanupEntry.class)));
    long now = System.currentTimeMillis();
    for (CleanupEntry entry : cleanState.get()) {
      if (entry.committedAtMillis == 0) {
        // snapshotted in the checkpoint restored from, which completed: the rows are committed
        entry.committedAtMillis = now;
      }
      toClean.add(entry);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (cleaner == null) {
      return;
    }
    for (String key : readThisEpoch) {
      toClean.add(new CleanupEntry(key, context.getCheckpointId(), 0));
    }
    readThisEpoch.clear();
    cleanState.update(toClean);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    if (cleaner == null) {
      return;
    }
    long now = System.currentTimeMillis();
    int attempts = 0;
    for (Iterator<CleanupEntry> it = toClean.iterator(); it.hasNext(); ) {
      CleanupEntry entry = it.next();
      if (entry.committedAtMillis == 0 && entry.checkpointId <= checkpointId) {
        entry.committedAtMillis = now;
      }
      if (entry.committedAtMillis == 0
          || now - entry.committedAtMillis < cleaner.retentionMillis()
          || attempts >= CLEANS_PER_CHECKPOINT) {
        continue;
      }
      attempts++;
      try {
        cleaner.clean(entry.key);
        filesCleaned.inc();
        it.remove();
      } catch (Exception e) {
        LOG.warn(
            "Auto Loader could not {} the processed file {}; it tries again at a later"
                + " checkpoint: {}",
            cleaner.mode(),
            entry.key,
            e.toString());
      }
    }
  }

  @Override
  public void open(Configuration parameters) {
    ledger = getRuntimeContext().getState(new ValueStateDescriptor<>(LEDGER_STATE, Types.LONG));
    filesRead = getRuntimeContext().getMetricGroup().counter("numFilesRead");
    filesSkipped = getRuntimeContext().getMetricGroup().counter("numFilesAlreadyProcessed");
    rowsRead = getRuntimeContext().getMetricGroup().counter("numRowsRead");
    filesCleaned = getRuntimeContext().getMetricGroup().counter("numFilesCleaned");
    filesSkippedCorrupt = getRuntimeContext().getMetricGroup().counter("numSkippedCorruptFiles");
    filesExpired = getRuntimeContext().getMetricGroup().counter("numFilesExpired");
    entriesEvicted = getRuntimeContext().getMetricGroup().counter("numLedgerEntriesEvicted");
    getRuntimeContext().getMetricGroup().gauge("numLedgerEntries", () -> entries);
  }

  @Override
  public void close() throws Exception {
    if (cleaner != null) {
      cleaner.close();
    }
  }

  @Override
  public void processElement(DiscoveredFile file, Context ctx, Collector<Row> out)
      throws Exception {
    if (ledger.value() != null) {
      filesSkipped.inc();
      return;
    }
    if (expired(file.modificationTime, ctx.timerService().currentProcessingTime())) {
      LOG.info(
          "Auto Loader did not read {}: it was modified at {}, more than cloudFiles.maxFileAge={}"
              + " ms ago",
          file.key,
          file.modificationTime,
          maxFileAgeMillis);
      filesExpired.inc();
      return;
    }
    long[] rows = {0};
    Row metadata = withFileMetadata ? FileMetadata.of(file, reader.pathOf(file)) : null;
    try {
      reader.read(
          file,
          row -> {
            out.collect(metadata == null ? row : Row.join(row, metadata));
            rows[0]++;
            rowsEmitted++;
          });
    } catch (UnknownFieldException | MalformedRecordException e) {
      // a restart reads the same line again with the same job graph, so the same schema: it
      // fails again. A new column needs the query rebuilt (it reads the recorded schema), a
      // malformed record a fix of the file or a rescued data column
      throw new SuppressRestartsException(e);
    } catch (CorruptFileException e) {
      if (!reader.ignoresCorruptFiles()) {
        throw new SuppressRestartsException(e); // so does the same file
      }
      LOG.warn(
          "Auto Loader skipped the corrupt file {} after {} rows (ignoreCorruptFiles=true): {}",
          e.path(),
          rows[0],
          e.getCause() == null ? e.getMessage() : e.getCause().toString());
      filesSkippedCorrupt.inc();
    }
    ledger.update(file.modificationTime);
    entries++;
    if (maxFileAgeMillis > 0) {
      ctx.timerService().registerProcessingTimeTimer(expiryTime(file.modificationTime));
    }
    if (cleaner != null) {
      readThisEpoch.add(file.key);
    }
    filesRead.inc();
    rowsRead.inc(rows[0]);
  }

  /**
   * The files in this subtask's ledger (gauge {@code numLedgerEntries}): those entered since it
   * opened, those restored when a restore walked the ledger (with a max age), less those evicted.
   */
  long ledgerEntries() {
    return entries;
  }

  /** Counts entries a restore found ({@link FileLedgerOperator}). */
  void restoredEntries(long count) {
    entries += count;
  }

  /** Evicts the entry if its file is now too old (a timer of an earlier max age may be early). */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Row> out) throws Exception {
    Long modificationTime = ledger.value();
    if (modificationTime != null && expired(modificationTime, timestamp)) {
      ledger.clear();
      entries--;
      entriesEvicted.inc();
    }
  }
}
