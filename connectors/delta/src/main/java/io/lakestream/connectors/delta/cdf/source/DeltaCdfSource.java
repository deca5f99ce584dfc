package io.lakestream.connectors.delta.cdf.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaColumnChanges;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorStateSerializer;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfSourceEnumerator;
import io.lakestream.connectors.delta.cdf.source.reader.DeltaCdfSourceReader;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import io.lakestream.connectors.delta.source.DeltaStreamSource;
import io.lakestream.connectors.delta.source.reader.NestedRowValues;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * A Delta table's change data feed as a Flink source (FLIP-27), like Spark's {@code
 * readStream.format("delta").option("readChangeFeed", "true")}: streams the change rows of each
 * version from {@code startingVersion} (or of versions committed after the start, with {@code
 * latest}), as {@link io.lakestream.connectors.delta.cdf.DeltaChangeLog} selects them. Without
 * {@code startingVersion}, as in Spark, a new query first emits the table's latest snapshot as
 * {@code insert} rows of that version, then the changes of later versions. Build with {@link
 * DeltaCdfSourceBuilder}.
 *
 * <p>Rows are {@link Row}s: the table's columns (typed as the Delta source types them), then {@code
 * _change_type} (String), {@code _commit_version} (Long), {@code _commit_timestamp} (Instant); the
 * field names are in {@link #getProducedType()}.
 *
 * <p>Guarantees: every change row is emitted exactly once per checkpointed stream position (the
 * enumerator checkpoints the next change file's {@code (version, index)}, readers the rows emitted
 * of their current file), so a restore resumes exactly. In an availableNow run it reads up to the
 * version current when the run started, then reports caught-up. A version without the change data
 * feed enabled fails the job with {@link
 * io.lakestream.connectors.delta.cdf.ChangeDataFeedNotEnabledException}'s message.
 */
@PublicEvolving
public final class DeltaCdfSource
    extends DeltaStreamSource<DeltaCdfSplit, DeltaCdfEnumeratorState> {
  private static final long serialVersionUID = 1L;

  private final long startingVersion;
  private final DeltaColumnChanges followed;

  /**
   * @param followed the column renames and drops followed
   */
  DeltaCdfSource(Settings settings, long startingVersion, DeltaColumnChanges followed) {
    super(settings);
    this.startingVersion = startingVersion;
    this.followed = followed;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Row, DeltaCdfSplit> createReader(SourceReaderContext context) {
    return new DeltaCdfSourceReader(
        context,
        new DeltaChangeFileReader(table, schemaJson, partitionColumns, columnMappingMode),
        NestedRowValues.of((RowTypeInfo) getProducedType()),
        inputRows(context));
  }

  @Override
  public SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> createEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context) {
    DeltaCdfEnumeratorState start =
        startingVersion == SNAPSHOT
            ? DeltaCdfEnumeratorState.startingWithSnapshotOf(latestVersion())
            : DeltaCdfEnumeratorState.startingAt(
                startingVersion == LATEST ? latestVersion() + 1 : startingVersion);
    return restoreEnumerator(context, start);
  }

  @Override
  public SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context, DeltaCdfEnumeratorState checkpoint) {
    long end = availableNow() ? latestVersion() : -1;
    return new DeltaCdfSourceEnumerator(
        context,
        checkpoint,
        new DeltaChangeLog(table, schemaJson, schemaVersion, followed),
        limits(false, end),
        positions(DeltaCdfSourceEnumerator.FILES_ADMITTED));
  }

  @Override
  public SimpleVersionedSerializer<DeltaCdfSplit> getSplitSerializer() {
    return new DeltaCdfSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<DeltaCdfEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new DeltaCdfEnumeratorStateSerializer();
  }

  @Override
  public String sourceType() {
    return "delta-cdf";
  }
}
