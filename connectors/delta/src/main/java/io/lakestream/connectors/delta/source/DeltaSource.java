package io.lakestream.connectors.delta.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaColumnChanges;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorState;
import io.lakestream.connectors.delta.source.enumerator.DeltaEnumeratorStateSerializer;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceEnumerator;
import io.lakestream.connectors.delta.source.reader.DeltaSourceReader;
import io.lakestream.connectors.delta.source.reader.NestedRowValues;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplitSerializer;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * A Delta table as a Flink source (FLIP-27), like Spark's {@code readStream.format("delta")}:
 * streams the rows of an append-only table, the current snapshot first (or from {@code
 * startingVersion}), then each version as it is committed. Or, built with {@code versionAsOf} /
 * {@code timestampAsOf}, a bounded read of one version (time travel). Build with {@link
 * DeltaSourceBuilder}.
 *
 * <p>Rows are {@link Row}s of the chosen columns ({@link DeltaSourceBuilder#columns}; by default
 * every column in the table's order, partition columns included at their declared position), typed
 * by {@link #getProducedType()} (a {@link RowTypeInfo} with the column names): {@code string}
 * String, {@code long} Long, {@code integer} Integer, {@code short} Short, {@code byte} Byte,
 * {@code double} Double, {@code float} Float, {@code boolean} Boolean, {@code decimal} BigDecimal,
 * {@code timestamp} Instant, {@code timestamp_ntz} LocalDateTime, {@code date} LocalDate, {@code
 * binary} byte[]; {@code row.getField(i)} gives the same values as {@link
 * io.lakestream.connectors.delta.DeltaTableReader}'s {@code Object[]} rows.
 *
 * <p>Guarantees: every row of every admitted data file is emitted exactly once per checkpointed
 * stream position (the enumerator checkpoints the next file position, readers the rows emitted of
 * their current file). Fails with {@link io.lakestream.connectors.delta.DeltaChangeCommitException}
 * on a version that removes or rewrites data (deletion vectors added to files included) unless
 * {@code skipChangeCommits}; a file's deletion vector hides its deleted rows; versions with only
 * {@code dataChange=false} actions (compaction) are skipped. In an availableNow run it reads up to
 * the version current when the run started, then reports caught-up and idles.
 *
 * <p>With a filter ({@link DeltaSourceBuilder#filter}) the data files none of whose rows can match
 * are never admitted, neither of the snapshot nor of later versions; the enumerator reports {@code
 * numFilesAdmitted} and {@code numFilesSkipped} (since the run started) as metrics of its group and
 * in the source's progress {@code metrics}.
 */
@PublicEvolving
public final class DeltaSource extends DeltaStreamSource<DeltaSourceSplit, DeltaEnumeratorState> {
  private static final long serialVersionUID = 1L;

  /**
   * The columns rows hold and the filter that skips files.
   *
   * @param columns the columns, as the schema spells them, in row order
   * @param filter the filter, or null
   */
  record Selection(List<String> columns, DeltaFilter filter) implements Serializable {
    Selection {
      columns = List.copyOf(columns);
    }
  }

  private final Selection selection;
  private final long startingVersion;
  private final long boundedVersion;
  private final boolean skipChangeCommits;
  private final boolean ignoreDeletes;
  private final DeltaColumnChanges followed;

  DeltaSource(
      Settings settings,
      Selection selection,
      long startingVersion,
      long boundedVersion,
      boolean skipChangeCommits,
      boolean ignoreDeletes,
      DeltaColumnChanges followed) {
    super(settings);
    this.followed = followed;
    this.selection = selection;
    this.startingVersion = startingVersion;
    this.boundedVersion = boundedVersion;
    this.skipChangeCommits = skipChangeCommits;
    this.ignoreDeletes = ignoreDeletes;
  }

  private boolean bounded() {
    return boundedVersion >= 0;
  }

  @Override
  public Boundedness getBoundedness() {
    return bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Row, DeltaSourceSplit> createReader(SourceReaderContext context) {
    return new DeltaSourceReader(
        context,
        new DeltaDataFileReader(
            table, schemaJson, partitionColumns, selection.columns(), columnMappingMode),
        NestedRowValues.of((RowTypeInfo) getProducedType()),
        inputRows(context));
  }

  @Override
  public SplitEnumerator<DeltaSourceSplit, DeltaEnumeratorState> createEnumerator(
      SplitEnumeratorContext<DeltaSourceSplit> context) {
    DeltaEnumeratorState start;
    if (bounded()) {
      start = new DeltaEnumeratorState(boundedVersion, 0, true, List.of(), 0);
    } else if (startingVersion == SNAPSHOT) {
      start = new DeltaEnumeratorState(latestVersion(), 0, true, List.of(), 0);
    } else if (startingVersion == LATEST) {
      start = new DeltaEnumeratorState(latestVersion() + 1, 0, false, List.of(), 0);
    } else {
      start = new DeltaEnumeratorState(startingVersion, 0, false, List.of(), 0);
    }
    return restoreEnumerator(context, start);
  }

  @Override
  public SplitEnumerator<DeltaSourceSplit, DeltaEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<DeltaSourceSplit> context, DeltaEnumeratorState checkpoint) {
    long end = bounded() ? boundedVersion : availableNow() ? latestVersion() : -1;
    return new DeltaSourceEnumerator(
        context,
        checkpoint,
        new DeltaTableChanges(
            table,
            schemaJson,
            skipChangeCommits,
            ignoreDeletes,
            skipping(),
            followed,
            schemaVersion),
        limits(bounded(), end),
        positions(DeltaSourceEnumerator.ROWS_ADMITTED));
  }

  private DeltaFileSkipping skipping() {
    return DeltaFileSkipping.of(
        selection.filter(), KernelSchemaJson.parse(schemaJson), partitionColumns, table.path());
  }

  @Override
  public SimpleVersionedSerializer<DeltaSourceSplit> getSplitSerializer() {
    return new DeltaSourceSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<DeltaEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new DeltaEnumeratorStateSerializer();
  }

  @Override
  public String sourceType() {
    return "delta";
  }
}
