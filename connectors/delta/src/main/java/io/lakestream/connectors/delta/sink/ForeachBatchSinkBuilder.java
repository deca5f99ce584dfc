package io.lakestream.connectors.delta.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochFunction;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a foreachBatch sink: parallel writers stage the epoch's rows as Parquet files in a staging
 * directory (uncommitted data files of a staging Delta table declared as {@code schema}), and ONE
 * committer, once the epoch's checkpoint is complete, reads them back and calls the {@link
 * EpochFunction} with the epoch id and all its rows (see {@link EpochFunction} for the
 * at-least-once contract). With {@link io.lakestream.connectors.delta.merge.DeltaMergeCommit} as
 * the function the epoch becomes one idempotent MERGE version.
 *
 * <p>The staging directory should be private to the query (for example below its checkpoint
 * location); {@link #build()} runs {@link #sanityCheck()} and creates the staging table.
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
public final class ForeachBatchSinkBuilder<T> {
  private final String stagingPath;
  private final DeltaTableSchema schema;
  private final RowFields<T> fields;
  private EpochFunction function;
  private QueryContext query;
  private String sinkName;
  private int maxRowsPerFile = DeltaSinkBuilder.DEFAULT_MAX_ROWS_PER_FILE;
  private Map<String, String> hadoopConf = Map.of();

  private ForeachBatchSinkBuilder(
      String stagingPath, DeltaTableSchema schema, RowFields<T> fields) {
    this.stagingPath = Locations.absolute(Objects.requireNonNull(stagingPath, "stagingPath"));
    this.schema = Objects.requireNonNull(schema, "schema");
    this.fields = Objects.requireNonNull(fields, "fields");
  }

  /**
   * A foreachBatch sink whose rows ({@code fields} of each element, declared as {@code schema}) are
   * staged at {@code stagingPath}.
   */
  public static <T> ForeachBatchSinkBuilder<T> forStaging(
      String stagingPath, DeltaTableSchema schema, RowFields<T> fields) {
    return new ForeachBatchSinkBuilder<>(stagingPath, schema, fields);
  }

  /** The function run per epoch; required. */
  public ForeachBatchSinkBuilder<T> function(EpochFunction function) {
    this.function = function;
    return this;
  }

  /** The query, for progress records; required. */
  public ForeachBatchSinkBuilder<T> query(QueryContext query) {
    this.query = query;
    return this;
  }

  /** The sink's name in progress and commit records; use the same string as its uid. */
  public ForeachBatchSinkBuilder<T> sinkName(String sinkName) {
    this.sinkName = sinkName;
    return this;
  }

  /** Rows a writer buffers before it stages a file (a checkpoint also stages one). */
  public ForeachBatchSinkBuilder<T> maxRowsPerFile(int rows) {
    this.maxRowsPerFile = rows;
    return this;
  }

  /** Hadoop settings for the staging file system. */
  public ForeachBatchSinkBuilder<T> hadoopConf(Map<String, String> conf) {
    this.hadoopConf = Map.copyOf(conf);
    return this;
  }

  /** Checks the settings; fails with a {@link LakestreamException} naming the bad one. */
  public void sanityCheck() {
    if (function == null) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "foreachBatch sink staging at "
              + stagingPath
              + " needs the epoch function (function(...))");
    }
    if (query == null) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "foreachBatch sink staging at " + stagingPath + " needs the query (query(...))");
    }
    if (sinkName == null || sinkName.isBlank()) {
      throw new LakestreamException(
          ConnectorErrorClass.CONNECTOR_NAME_MISSING,
          "foreachBatch sink staging at " + stagingPath + " needs a sinkName (its uid)");
    }
    if (maxRowsPerFile < 1) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "maxRowsPerFile must be >= 1, was " + maxRowsPerFile);
    }
  }

  /**
   * @throws io.lakestream.connectors.delta.DeltaTableException if the staging table cannot be
   *     created
   */
  public EpochSink<T, DeltaWrittenFile> build() {
    sanityCheck();
    DeltaTable staging = DeltaTable.forPath(stagingPath, hadoopConf);
    ForeachBatchCommit commit = new ForeachBatchCommit(staging, schema, function);
    commit.open();
    RowFields<T> rowFields = fields;
    DeltaTableSchema stagingSchema = schema;
    int rows = maxRowsPerFile;
    return new EpochSink<>(
        SinkKind.FOREACH_BATCH,
        staging.path(),
        context -> new DeltaSinkWriter<>(staging, stagingSchema, rowFields, rows),
        DeltaWrittenFileSerializer::new,
        commit,
        new CommitRecordListener(query, sinkName, "ForeachBatch[" + staging.path() + "]"));
  }
}
