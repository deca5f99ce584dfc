package io.lakestream.connectors.delta.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaCompleteCommit;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.maintenance.AutoCompaction;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochCommitAction;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the exactly-once Delta sink: parallel writers produce Parquet files, ONE committer commits
 * each epoch as one Delta version carrying {@code txn(appId, epoch)} (app id from the query), so a
 * replayed epoch is skipped. {@link #build()} runs {@link #sanityCheck()} and creates the table if
 * missing.
 *
 * <p>The query's output mode decides what a version does: append adds the epoch's files ({@link
 * DeltaAppendCommit}); complete replaces the table's contents with them ({@link
 * DeltaCompleteCommit}; refused for tables with change data feed); update is refused (use a MERGE
 * in an epoch function). {@link DeltaSinkOptions#MERGE_SCHEMA} lets new nullable columns be added
 * to an existing table.
 *
 * <p>The writers turn each element into column values at once ({@link RowFields}) and keep no
 * reference to it, so the sink is safe with Flink's {@code pipeline.object-reuse}; with it, Flink
 * no longer copies every element between the chained upstream operator and the writer (on 10M
 * narrow POJO rows that copy cost about a fifth of the sink's throughput, see BENCHMARKS.md
 * delta-sink).
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
public final class DeltaSinkBuilder<T> {
  /** Rows buffered per writer before a file is written (a checkpoint also writes one). */
  public static final int DEFAULT_MAX_ROWS_PER_FILE = 1_000_000;

  /**
   * In-memory size (estimated) of the rows buffered per writer before a file is written: bounds the
   * heap a writer uses for wide rows. 64 MiB.
   */
  public static final long DEFAULT_MAX_BUFFERED_BYTES = 64L * 1024 * 1024;

  private final String path;
  private final DeltaTableSchema schema;
  private final RowFields<T> fields;
  private QueryContext query;
  private String sinkName;
  private int maxRowsPerFile = DEFAULT_MAX_ROWS_PER_FILE;
  private long maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;
  private Map<String, String> hadoopConf = Map.of();
  private boolean mergeSchema = DeltaSinkOptions.MERGE_SCHEMA.defaultValue();
  private boolean autoCompact = DeltaSinkOptions.AUTO_COMPACT.defaultValue();

  private DeltaSinkBuilder(String path, DeltaTableSchema schema, RowFields<T> fields) {
    this.path = Locations.absolute(Objects.requireNonNull(path, "path"));
    this.schema = Objects.requireNonNull(schema, "schema");
    this.fields = Objects.requireNonNull(fields, "fields");
  }

  /**
   * A sink into the Delta table at {@code path} (created if missing) declared as {@code schema}.
   */
  public static <T> DeltaSinkBuilder<T> forTable(
      String path, DeltaTableSchema schema, RowFields<T> fields) {
    return new DeltaSinkBuilder<>(path, schema, fields);
  }

  /** The query: its app id tags every commit; required. */
  public DeltaSinkBuilder<T> query(QueryContext query) {
    this.query = query;
    return this;
  }

  /** The sink's name in progress and commit records; use the same string as its uid. */
  public DeltaSinkBuilder<T> sinkName(String sinkName) {
    this.sinkName = sinkName;
    return this;
  }

  /**
   * Rows a writer buffers before it writes a file; default {@value #DEFAULT_MAX_ROWS_PER_FILE}.
   * Every checkpoint also writes the buffer, so files are at most this big.
   */
  public DeltaSinkBuilder<T> maxRowsPerFile(int rows) {
    this.maxRowsPerFile = rows;
    return this;
  }

  /**
   * Estimated in-memory bytes a writer buffers before it writes a file; default 64 MiB. Lower it
   * for wide rows on small TaskManagers, raise it (with the heap) for larger files.
   */
  public DeltaSinkBuilder<T> maxBufferedBytes(long bytes) {
    this.maxBufferedBytes = bytes;
    return this;
  }

  /** Hadoop settings for the table's file system (e.g. fs.s3a.* for S3). */
  public DeltaSinkBuilder<T> hadoopConf(Map<String, String> conf) {
    this.hadoopConf = Map.copyOf(conf);
    return this;
  }

  /** Auto-compaction after each epoch (see {@link DeltaSinkOptions#AUTO_COMPACT}); default off. */
  public DeltaSinkBuilder<T> autoCompact(boolean compact) {
    this.autoCompact = compact;
    return this;
  }

  /** Spark's {@code mergeSchema} (see {@link DeltaSinkOptions#MERGE_SCHEMA}); default false. */
  public DeltaSinkBuilder<T> mergeSchema(boolean merge) {
    this.mergeSchema = merge;
    return this;
  }

  /**
   * Sets an option by its Spark name, in any case (see {@link DeltaSinkOptions}), e.g. {@code
   * option("mergeSchema", "true")}.
   *
   * @throws io.lakestream.api.error.LakestreamException for an unknown key (naming the closest
   *     valid one) or an invalid value; see {@link DeltaSinkOptions#CATALOG}
   */
  public DeltaSinkBuilder<T> option(String key, String value) {
    OptionValues values =
        DeltaSinkOptions.CATALOG.validate(
            Map.of(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key)),
            "for " + path);
    if (values.contains(DeltaSinkOptions.MERGE_SCHEMA)) {
      mergeSchema(values.get(DeltaSinkOptions.MERGE_SCHEMA));
    }
    if (values.contains(DeltaSinkOptions.AUTO_COMPACT)) {
      autoCompact(values.get(DeltaSinkOptions.AUTO_COMPACT));
    }
    return this;
  }

  /** Checks the options; fails with a {@link LakestreamException} naming the bad one. */
  public void sanityCheck() {
    if (query == null) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "Delta sink for " + path + " needs the query (query(...)): its app id tags each commit");
    }
    if (sinkName == null || sinkName.isBlank()) {
      throw new LakestreamException(
          ConnectorErrorClass.CONNECTOR_NAME_MISSING,
          "Delta sink for " + path + " needs a sinkName (its uid)");
    }
    if (maxRowsPerFile < 1) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "maxRowsPerFile must be >= 1, was " + maxRowsPerFile);
    }
    if (maxBufferedBytes < 1) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "maxBufferedBytes must be >= 1, was " + maxBufferedBytes);
    }
    if (query.outputMode() == OutputMode.UPDATE) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_UNSUPPORTED_OUTPUT_MODE,
          "The Delta sink does not support output mode update: a Delta table takes appends."
              + " Upsert changed rows with a MERGE in an epoch function (foreachBatch), or use"
              + " output mode append.");
    }
  }

  /**
   * Builds the sink, creating the table (or checking it against the schema, and with mergeSchema
   * adding new columns) now, before any task runs: parallel writers racing to create version 0
   * could leave a damaged checksum file beside it on a local file system, writers must write new
   * columns under the physical names the evolution assigns, and a schema mismatch should stop the
   * query before it starts.
   *
   * @throws java.io.UncheckedIOException if the table cannot be created or does not match (the
   *     cause is a {@link io.lakestream.connectors.delta.DeltaSchemaMismatchException} then), or
   *     cannot take the output mode
   */
  public EpochSink<T, DeltaWrittenFile> build() {
    sanityCheck();
    DeltaTable table = DeltaTable.forPath(path, hadoopConf);
    EpochCommitAction<DeltaWrittenFile> commit =
        query.outputMode() == OutputMode.COMPLETE
            ? new DeltaCompleteCommit(
                table, schema, query.appId(), DeltaAppendCommit.DEFAULT_MAX_ATTEMPTS, mergeSchema)
            : new DeltaAppendCommit(
                table, schema, query.appId(), DeltaAppendCommit.DEFAULT_MAX_ATTEMPTS, mergeSchema);
    try {
      commit.open(); // creates, checks or evolves the table; complete also checks its properties
      commit.close();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e.getMessage(), e);
    }
    if (query.outputMode() != OutputMode.COMPLETE) {
      commit = AutoCompaction.ifEnabled(commit, table, autoCompact);
    }
    RowFields<T> rowFields = fields;
    DeltaTableSchema tableSchema = schema;
    int rows = maxRowsPerFile;
    long bytes = maxBufferedBytes;
    boolean merge = mergeSchema;
    return new EpochSink<>(
        SinkKind.DELTA,
        table.path(),
        context -> new DeltaSinkWriter<>(table, tableSchema, rowFields, rows, bytes, merge),
        DeltaWrittenFileSerializer::new,
        commit,
        new CommitRecordListener(query, sinkName, "DeltaSink[" + table.path() + "]"));
  }
}
