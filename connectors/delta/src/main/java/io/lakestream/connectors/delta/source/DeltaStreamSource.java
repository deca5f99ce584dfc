package io.lakestream.connectors.delta.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaCommitRange;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.InputRowCount;
import io.lakestream.state.query.QueryContext;
import java.net.URI;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * What the Delta table source and the Delta change-data-feed source share: the table and its
 * schema, the produced row type, the rate limits ({@code maxFilesPerTrigger}, {@code
 * maxBytesPerTrigger}, {@code pollInterval}), the query the source runs in and its description to
 * the query (one input path: the table; availableNow supported; epochs always limited, as {@code
 * maxFilesPerTrigger} has a default). Subclasses create their readers and enumerators.
 *
 * <p>{@link #latestVersion()} fails with {@link DeltaTableException} if the table's log cannot be
 * read.
 *
 * @param <S> the split type
 * @param <E> the enumerator's checkpoint type
 */
@PublicEvolving
public abstract class DeltaStreamSource<S extends SourceSplit, E>
    implements Source<Row, S, E>, ResultTypeQueryable<Row>, DescribedSource {
  private static final long serialVersionUID = 1L;

  /** {@code startingVersion=latest}: only versions committed after the stream starts. */
  protected static final long LATEST = -1;

  /** No {@code startingVersion}: the current snapshot first, then later versions. */
  protected static final long SNAPSHOT = -2;

  /**
   * What every Delta source is built with.
   *
   * @param name the source's name in offsets records and progress (its uid)
   * @param table the table read
   * @param schemaJson the table's schema (as Delta JSON) the rows are read with
   * @param schemaVersion the version {@code schemaJson} is the schema of: earlier versions with
   *     another schema are read with it where the change is one the source follows
   * @param partitionColumns the table's partition columns
   * @param columnMappingMode the table's {@code delta.columnMapping.mode}: {@code none}, {@code
   *     name} or {@code id}
   * @param rowType the produced rows' type
   * @param maxFilesPerTrigger at most this many files per epoch
   * @param maxBytesPerTrigger soft limit of file bytes per epoch; 0 = none
   * @param pollIntervalMillis how often the log is checked for new versions
   * @param query the query the source runs in, or null
   */
  public record Settings(
      String name,
      DeltaTable table,
      String schemaJson,
      long schemaVersion,
      List<String> partitionColumns,
      String columnMappingMode,
      RowTypeInfo rowType,
      int maxFilesPerTrigger,
      long maxBytesPerTrigger,
      long pollIntervalMillis,
      QueryContext query) {
    public Settings {
      partitionColumns = List.copyOf(partitionColumns);
    }
  }

  private final String name;

  /** The table read. */
  protected final DeltaTable table;

  /** The table's schema (as Delta JSON) the rows are read with. */
  protected final String schemaJson;

  /** The version {@link #schemaJson} is the schema of. */
  protected final long schemaVersion;

  /** The table's partition columns. */
  protected final List<String> partitionColumns;

  /** The table's column mapping mode ({@code none}, {@code name} or {@code id}). */
  protected final String columnMappingMode;

  private final RowTypeInfo rowType;
  private final int maxFilesPerTrigger;
  private final long maxBytesPerTrigger;
  private final long pollIntervalMillis;
  private final QueryContext query;

  protected DeltaStreamSource(Settings settings) {
    this.name = settings.name();
    this.table = settings.table();
    this.schemaJson = settings.schemaJson();
    this.schemaVersion = settings.schemaVersion();
    this.partitionColumns = settings.partitionColumns();
    this.columnMappingMode = settings.columnMappingMode();
    this.rowType = settings.rowType();
    this.maxFilesPerTrigger = settings.maxFilesPerTrigger();
    this.maxBytesPerTrigger = settings.maxBytesPerTrigger();
    this.pollIntervalMillis = settings.pollIntervalMillis();
    this.query = settings.query();
  }

  /**
   * The count of the rows a reader emits per epoch, which progress reports as the source's input
   * rows (its positions count files).
   */
  protected final InputRowCount inputRows(SourceReaderContext context) {
    return new InputRowCount(
        query,
        name,
        context.getIndexOfSubtask(),
        context.currentParallelism(),
        ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE)); // unique per reader instance
  }

  /** Whether the query runs availableNow: read up to the version current at the start. */
  protected final boolean availableNow() {
    return query != null && query.availableNow();
  }

  /**
   * The run's admission limits; ignored for a bounded read or when the query ignores rate limits.
   *
   * @param endVersion admit nothing after this version; -1 = unbounded
   */
  protected final DeltaSourceLimits limits(boolean bounded, long endVersion) {
    boolean noLimits = bounded || (query != null && query.ignoreRateLimits());
    return new DeltaSourceLimits(
        maxFilesPerTrigger, maxBytesPerTrigger, noLimits, pollIntervalMillis, endVersion, bounded);
  }

  /** The source's offsets records, whose {@code totalOffset} is the position's {@code totalKey}. */
  protected final EpochPositions positions(String totalKey) {
    return new EpochPositions(query, name, position -> position.getOrDefault(totalKey, 0L));
  }

  /**
   * The table's latest version.
   *
   * @throws DeltaTableException if the log cannot be read
   */
  protected final long latestVersion() {
    return new DeltaCommitRange(table).latestVersion();
  }

  @Override
  public TypeInformation<Row> getProducedType() {
    return rowType;
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

  /** The source's name in offsets records and progress (its uid). */
  public String name() {
    return name;
  }
}
