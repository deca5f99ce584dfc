package io.lakestream.sql.connector.delta;

import io.delta.kernel.Snapshot;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTypes;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import io.lakestream.connectors.delta.source.reader.NestedRowValues;
import io.lakestream.connectors.rate.source.RateSourceBuilder;
import io.lakestream.connectors.rate.source.SequenceSource;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.connector.delta.DeltaTableSettings.VersionRange;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.state.query.QueryContext;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

/**
 * {@code 'readChangeFeed' = 'true'} with {@code 'endingVersion'}: the change rows of versions
 * {@code startingVersion..endingVersion} of a Delta table, read once and bounded, as Spark's batch
 * change data feed read and {@code table_changes(table, start, end)} return them: every change row
 * (of any {@code _change_type}) is a plain insert ({@code +I}), so a batch or streaming query can
 * select, filter or write them to an append table. {@code _change_type}, {@code _commit_version}
 * and {@code _commit_timestamp} are metadata columns, as for the streaming change feed ({@link
 * DeltaChangeFeedTableSource}).
 *
 * <p>The rows are those of {@link DeltaChangeDataFeed} (what {@code lakestream table-changes}
 * prints), read with the schema of {@code endingVersion}. Planning checks the range: it fails with
 * {@code DELTA_INVALID_VERSION_RANGE} naming {@code endingVersion} when it is past the latest
 * version, with {@code DELTA_CHANGE_DATA_FEED_NOT_ENABLED} when a version of it does not record the
 * feed, with {@code DELTA_SCHEMA_CHANGED}-class errors when the schema changes within it. The
 * versions are then read in parallel, one version per task at a time and one change file at a time,
 * so memory does not grow with the range. In a lakestream query the position in the range is in the
 * query's checkpoints (each version is read whole before the barrier after it), so a run on the
 * same checkpoint location reads no version twice; a new range needs a new checkpoint location. In
 * a plain {@code TableEnvironment} the read keeps no state.
 */
final class DeltaChangeRangeTableSource implements ScanTableSource, SupportsReadingMetadata {
  private final DeltaTableSettings settings;
  private final QueryContext query;
  private final DataType physical;
  private List<String> metadataKeys = List.of();
  private DataType produced;

  DeltaChangeRangeTableSource(
      DeltaTableSettings settings, QueryContext query, DataType physicalRow) {
    this.settings = settings;
    this.query = query;
    this.physical = physicalRow;
    this.produced = physicalRow;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public Map<String, DataType> listReadableMetadata() {
    return DeltaChangeFeedTableSource.readableMetadata();
  }

  @Override
  public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
    this.metadataKeys = List.copyOf(metadataKeys);
    this.produced = producedDataType;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    DeltaTable table = DeltaTable.forPath(settings.path(), settings.hadoopConf());
    VersionRange versions = settings.changeRange();
    DeclaredColumns.latestSnapshot(table, settings.name()); // no table: names the SQL table
    DeltaChangeDataFeed.Range range = checkedRange(table, versions);
    Snapshot snapshot = new DeltaTableReader(table).snapshotAtVersion(versions.to());
    RowSchema stored = DeltaTypes.fromKernel(snapshot.getSchema());
    int[] physicalPositions =
        DeclaredColumns.positions(
            FlinkTypes.toRowSchema((RowType) physical.getLogicalType(), settings.name()),
            stored,
            settings.name(),
            table.path());
    int[] positions =
        DeltaChangeFeedTableSource.changeRowPositions(
            physicalPositions, stored.size(), metadataKeys);
    VersionRows rows =
        new VersionRows(
            table,
            range,
            NestedRowValues.of(DeltaCdfSourceBuilder.changeRowType(table, snapshot)),
            positions,
            context.createDataStructureConverter(FlinkTypes.withObjectArrays(produced)));
    RowType rowType = (RowType) produced.getLogicalType();
    String name = settings.name();
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        return versionNumbers(env, versions, name + "-versions")
            .name("Versions[" + name + " " + versions.from() + ".." + versions.to() + "]")
            .uid(name + "-versions")
            .flatMap(rows)
            .returns(InternalTypeInfo.of(rowType))
            .name("TableChanges[" + name + "]")
            .uid(name + "-table-changes");
      }

      @Override
      public boolean isBounded() {
        return true;
      }
    };
  }

  /**
   * The range's version numbers, in order: a bounded sequence, or in a lakestream query (which ends
   * an availableNow run when its sources report they caught up) a replayable sequence source of
   * exactly that many numbers, whose position is in the query's checkpoints.
   */
  private DataStreamSource<Long> versionNumbers(
      StreamExecutionEnvironment env, VersionRange versions, String name) {
    if (query == null) {
      return env.fromSequence(versions.from(), versions.to());
    }
    long from = versions.from();
    SequenceSource<Long> source =
        RateSourceBuilder.rate(name, (GeneratorFunction<Long, Long>) n -> from + n, Types.LONG)
            .rows(versions.to() - from + 1)
            .numPartitions(1)
            .rowsPerSecond(0)
            .query(query)
            .build();
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), name);
  }

  /** The range, checked; an end past the latest version names {@code endingVersion}. */
  private DeltaChangeDataFeed.Range checkedRange(DeltaTable table, VersionRange versions) {
    try {
      return new DeltaChangeDataFeed(table).range(versions.from(), versions.to());
    } catch (DeltaTableException e) {
      if (!DeltaErrorClass.DELTA_INVALID_VERSION_RANGE.name().equals(e.errorClass())) {
        throw e;
      }
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          "Table "
              + settings.name()
              + ": options startingVersion ("
              + versions.from()
              + ") and endingVersion ("
              + versions.to()
              + ") are not a range of the table's versions; set endingVersion at most to the"
              + " latest version. "
              + e.detail(),
          e);
    }
  }

  @Override
  public DynamicTableSource copy() {
    DeltaChangeRangeTableSource copy = new DeltaChangeRangeTableSource(settings, query, physical);
    copy.metadataKeys = metadataKeys;
    copy.produced = produced;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "DeltaTableChanges[" + settings.path() + "]";
  }

  /**
   * The change rows of each version it is given, as insert rows of the declared columns (picked by
   * position).
   */
  private static final class VersionRows extends RichFlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final DeltaTable table;
    private final DeltaChangeDataFeed.Range range;
    private final NestedRowValues nested;
    private final int[] positions;
    private final DynamicTableSource.DataStructureConverter converter;
    private transient DeltaChangeDataFeed feed;

    VersionRows(
        DeltaTable table,
        DeltaChangeDataFeed.Range range,
        NestedRowValues nested,
        int[] positions,
        DynamicTableSource.DataStructureConverter converter) {
      this.table = table;
      this.range = range;
      this.nested = nested;
      this.positions = positions;
      this.converter = converter;
    }

    @Override
    public void open(Configuration parameters) {
      feed = new DeltaChangeDataFeed(table);
      converter.open(RuntimeConverter.Context.create(getRuntimeContext().getUserCodeClassLoader()));
    }

    @Override
    public void flatMap(Long version, Collector<RowData> out) {
      feed.forEachRow(
          range,
          version,
          values -> {
            nested.apply(values);
            Row row = new Row(RowKind.INSERT, positions.length);
            for (int i = 0; i < positions.length; i++) {
              row.setField(i, values[positions[i]]);
            }
            out.collect((RowData) converter.toInternal(row));
          });
    }
  }
}
