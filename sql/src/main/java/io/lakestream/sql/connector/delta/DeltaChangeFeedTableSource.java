package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTypes;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSource;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.state.query.QueryContext;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'readChangeFeed' = 'true'}: a Delta table's change data feed as a Flink changelog (the
 * Delta CDF source, {@link DeltaCdfSourceBuilder}): {@code insert} rows are {@code +I}, {@code
 * update_preimage} {@code -U}, {@code update_postimage} {@code +U}, {@code delete} {@code -D}; the
 * initial snapshot (without {@code startingVersion}) arrives as inserts. {@code _change_type},
 * {@code _commit_version} and {@code _commit_timestamp} are metadata columns ({@code
 * _commit_version BIGINT METADATA VIRTUAL}).
 *
 * <p>Versions are read in order by one reader: Flink's aggregations drop a retraction that arrives
 * before the row it retracts, which parallel readers of consecutive versions could cause.
 */
final class DeltaChangeFeedTableSource implements ScanTableSource, SupportsReadingMetadata {
  /** The metadata columns and their types. */
  static final Map<String, DataType> METADATA =
      Map.of(
          "_change_type", DataTypes.STRING().notNull(),
          "_commit_version", DataTypes.BIGINT().notNull(),
          "_commit_timestamp", DataTypes.TIMESTAMP_LTZ(6).notNull());

  private static final List<String> METADATA_ORDER =
      List.of("_change_type", "_commit_version", "_commit_timestamp");

  private final DeltaTableSettings settings;
  private final QueryContext query;
  private final DataType physical;
  private List<String> metadataKeys = List.of();
  private DataType produced;

  DeltaChangeFeedTableSource(
      DeltaTableSettings settings, QueryContext query, DataType physicalRow) {
    this.settings = settings;
    this.query = query;
    this.physical = physicalRow;
    this.produced = physicalRow;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.all();
  }

  @Override
  public Map<String, DataType> listReadableMetadata() {
    return readableMetadata();
  }

  /** The metadata columns, in the order a change row carries them after the table's columns. */
  static Map<String, DataType> readableMetadata() {
    Map<String, DataType> ordered = new LinkedHashMap<>();
    METADATA_ORDER.forEach(key -> ordered.put(key, METADATA.get(key)));
    return ordered;
  }

  /**
   * Where each produced column is in a change row (the table's {@code storedColumns} columns, then
   * the metadata): the declared columns at {@code physicalPositions}, then {@code metadataKeys}.
   */
  static int[] changeRowPositions(
      int[] physicalPositions, int storedColumns, List<String> metadataKeys) {
    int[] positions =
        Arrays.copyOf(physicalPositions, physicalPositions.length + metadataKeys.size());
    for (int i = 0; i < metadataKeys.size(); i++) {
      positions[physicalPositions.length + i] =
          storedColumns + METADATA_ORDER.indexOf(metadataKeys.get(i));
    }
    return positions;
  }

  @Override
  public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
    this.metadataKeys = List.copyOf(metadataKeys);
    this.produced = producedDataType;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    DeltaTable table = DeltaTable.forPath(settings.path(), settings.hadoopConf());
    RowSchema stored =
        DeltaTypes.fromKernel(DeclaredColumns.latestSnapshot(table, settings.name()).getSchema());
    int[] physicalPositions =
        DeclaredColumns.positions(
            FlinkTypes.toRowSchema((RowType) physical.getLogicalType(), settings.name()),
            stored,
            settings.name(),
            table.path());
    RowConversion toChangelog =
        RowConversion.changes(
            changeRowPositions(physicalPositions, stored.size(), metadataKeys),
            stored.size(),
            context.createDataStructureConverter(FlinkTypes.withObjectArrays(produced)));
    RowType rowType = (RowType) produced.getLogicalType();
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        DeltaCdfSource source =
            DeltaCdfSourceBuilder.forTable(settings.path())
                .name(settings.name())
                .options(settings.changeFeedOptions())
                .hadoopConf(settings.hadoopConf())
                .query(query)
                .build();
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), settings.name())
            .uid(settings.name())
            .setParallelism(1)
            .map(toChangelog)
            .returns(InternalTypeInfo.of(rowType))
            .setParallelism(1)
            .name("ToChangelog[" + settings.name() + "]")
            .uid(settings.name() + "-changelog");
      }

      @Override
      public boolean isBounded() {
        return false;
      }
    };
  }

  @Override
  public DynamicTableSource copy() {
    DeltaChangeFeedTableSource copy = new DeltaChangeFeedTableSource(settings, query, physical);
    copy.metadataKeys = metadataKeys;
    copy.produced = produced;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "DeltaChangeFeed[" + settings.path() + "]";
  }
}
