package io.lakestream.sql.connector.autoloader;

import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.ledger.FileMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.flink.types.Row;

/**
 * The files under a directory read by Flink SQL: the Auto Loader stream (discovery source, uid the
 * table's name; file ledger, uid {@code name-ledger}), each row projected onto the declared columns
 * and the {@code _metadata} columns read. Insert-only; each file is read once per query.
 */
final class AutoLoaderTableSource implements ScanTableSource, SupportsReadingMetadata {
  /** The readable metadata columns, by key. */
  private static final Map<String, DataType> METADATA = metadata();

  private final AutoLoader loader;
  private final int[] physical;
  private List<String> metadataKeys = List.of();
  private DataType produced;

  AutoLoaderTableSource(AutoLoader loader, int[] physical, DataType physicalRow) {
    this.loader = loader;
    this.physical = physical.clone();
    this.produced = physicalRow;
  }

  private static Map<String, DataType> metadata() {
    Map<String, DataType> keys = new LinkedHashMap<>();
    for (FileMetadata field : FileMetadata.FIELDS) {
      keys.put(key(field), typeOf(field));
    }
    return keys;
  }

  private static String key(FileMetadata field) {
    return "_metadata." + field.field();
  }

  private static DataType typeOf(FileMetadata field) {
    return switch (field) {
      case FILE_PATH, FILE_NAME -> DataTypes.STRING().notNull();
      case FILE_SIZE -> DataTypes.BIGINT().notNull();
      case FILE_MODIFICATION_TIME -> DataTypes.TIMESTAMP_LTZ(3).notNull();
    };
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public Map<String, DataType> listReadableMetadata() {
    return METADATA;
  }

  @Override
  public void applyReadableMetadata(List<String> keys, DataType producedDataType) {
    this.metadataKeys = List.copyOf(keys);
    this.produced = producedDataType;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    int[] positions = positions();
    FileRowProjection projection =
        new FileRowProjection(positions, context.createDataStructureConverter(produced));
    RowType rowType = (RowType) produced.getLogicalType();
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        DataStream<Row> rows =
            metadataKeys.isEmpty() ? loader.stream(env) : loader.streamWithFileMetadata(env);
        return rows.map(projection)
            .returns(InternalTypeInfo.of(rowType))
            .name("Project[" + loader.name() + "]")
            .uid(loader.name() + "-rows");
      }

      @Override
      public boolean isBounded() {
        return false; // an availableNow run ends by itself
      }
    };
  }

  /** The declared columns' positions in the stream's rows, then the metadata columns'. */
  private int[] positions() {
    int[] positions = new int[physical.length + metadataKeys.size()];
    System.arraycopy(physical, 0, positions, 0, physical.length);
    int dataArity = loader.rowType().getArity();
    for (int i = 0; i < metadataKeys.size(); i++) {
      String key = metadataKeys.get(i);
      FileMetadata field =
          FileMetadata.FIELDS.stream().filter(f -> key(f).equals(key)).findFirst().orElseThrow();
      positions[physical.length + i] = dataArity + field.ordinal();
    }
    return positions;
  }

  @Override
  public DynamicTableSource copy() {
    AutoLoaderTableSource copy = new AutoLoaderTableSource(loader, physical, produced);
    copy.metadataKeys = metadataKeys;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "AutoLoader[" + loader.name() + "]";
  }
}
