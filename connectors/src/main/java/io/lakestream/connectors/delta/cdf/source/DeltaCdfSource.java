package io.lakestream.connectors.delta.cdf.source;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.cdf.DeltaChangeFileReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeLog;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorStateSerializer;
import io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfSourceEnumerator;
import io.lakestream.connectors.delta.cdf.source.reader.DeltaCdfSourceReader;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit;
import io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.QueryContext;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * A Delta table's change data feed as a Flink source (FLIP-27), like Spark's {@code
 * readStream.format("delta").option("readChangeFeed", "true")}: streams the change rows of each
 * version from {@code startingVersion} (or of versions committed after the start), as {@link
 * io.lakestream.connectors.delta.cdf.DeltaChangeLog} selects them. Build with {@link
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
public final class DeltaCdfSource
    implements Source<Row, DeltaCdfSplit, DeltaCdfEnumeratorState>,
        ResultTypeQueryable<Row>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  /** {@code startingVersion=latest}. */
  static final long LATEST = -1;

  private final String name;
  private final DeltaTable table;
  private final String schemaJson;
  private final List<String> partitionColumns;
  private final RowTypeInfo rowType;
  private final long startingVersion;
  private final int maxFilesPerTrigger;
  private final long maxBytesPerTrigger;
  private final long pollIntervalMillis;
  private final QueryContext query;

  DeltaCdfSource(
      String name,
      DeltaTable table,
      String schemaJson,
      List<String> partitionColumns,
      RowTypeInfo rowType,
      long startingVersion,
      int maxFilesPerTrigger,
      long maxBytesPerTrigger,
      long pollIntervalMillis,
      QueryContext query) {
    this.name = name;
    this.table = table;
    this.schemaJson = schemaJson;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.rowType = rowType;
    this.startingVersion = startingVersion;
    this.maxFilesPerTrigger = maxFilesPerTrigger;
    this.maxBytesPerTrigger = maxBytesPerTrigger;
    this.pollIntervalMillis = pollIntervalMillis;
    this.query = query;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Row, DeltaCdfSplit> createReader(SourceReaderContext context) {
    return new DeltaCdfSourceReader(
        context, new DeltaChangeFileReader(table, schemaJson, partitionColumns));
  }

  @Override
  public SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> createEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context) {
    long start = startingVersion == LATEST ? latestVersion() + 1 : startingVersion;
    return restoreEnumerator(context, new DeltaCdfEnumeratorState(start, 0, List.of(), 0));
  }

  @Override
  public SplitEnumerator<DeltaCdfSplit, DeltaCdfEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<DeltaCdfSplit> context, DeltaCdfEnumeratorState checkpoint) {
    boolean availableNow = query != null && query.availableNow();
    boolean noLimits = query != null && query.ignoreRateLimits();
    long end = availableNow ? latestVersion() : -1;
    DeltaSourceLimits limits =
        new DeltaSourceLimits(
            maxFilesPerTrigger, maxBytesPerTrigger, noLimits, pollIntervalMillis, end, false);
    return new DeltaCdfSourceEnumerator(
        context,
        checkpoint,
        new DeltaChangeLog(table, schemaJson),
        limits,
        new EpochPositions(
            query,
            name,
            position -> position.getOrDefault(DeltaCdfSourceEnumerator.FILES_ADMITTED, 0L)));
  }

  private long latestVersion() {
    try {
      return new DeltaChangeLog(table, schemaJson).latestVersion();
    } catch (DeltaTableException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
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
  public TypeInformation<Row> getProducedType() {
    return rowType;
  }

  @Override
  public String sourceType() {
    return "delta-cdf";
  }

  @Override
  public String sourceTarget() {
    return table.path();
  }

  @Override
  public List<URI> inputPaths() {
    return List.of(URI.create(table.path()));
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }

  /** Always: maxFilesPerTrigger has a default (1000), as in Spark. */
  @Override
  public boolean limitsEpochs() {
    return true;
  }

  public String name() {
    return name;
  }
}
