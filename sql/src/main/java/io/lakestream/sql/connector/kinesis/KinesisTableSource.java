package io.lakestream.sql.connector.kinesis;

import io.lakestream.connectors.kinesis.source.KinesisSource;
import io.lakestream.sql.connector.format.DeadLetterTable;
import io.lakestream.sql.connector.format.RecordColumn;
import io.lakestream.sql.connector.format.ValueDecoder;
import io.lakestream.sql.connector.format.ValueField;
import io.lakestream.state.query.QueryContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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
 * A Kinesis data stream read by Flink SQL: lakestream's Kinesis source ({@link KinesisSource})
 * under the query runtime (shard positions in the query's log, {@code maxRecordsPerEpoch},
 * availableNow), each record decoded into the declared columns by {@link KinesisRowDecoder}; with
 * {@code format = 'json'} or {@code 'avro'} the records it cannot decode are written to the
 * dead-letter Delta table, exactly once per epoch like any sink. Insert-only.
 */
final class KinesisTableSource implements ScanTableSource, SupportsReadingMetadata {
  private final KinesisTableSettings settings;
  private final QueryContext query;
  private final List<KinesisColumn> physical;
  private List<String> metadataKeys = List.of();
  private DataType produced;

  KinesisTableSource(
      KinesisTableSettings settings,
      QueryContext query,
      List<KinesisColumn> physical,
      DataType physicalRow) {
    this.settings = settings;
    this.query = query;
    this.physical = List.copyOf(physical);
    this.produced = physicalRow;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public Map<String, DataType> listReadableMetadata() {
    return RecordColumn.metadata(KinesisRecordColumn.class);
  }

  @Override
  public void applyReadableMetadata(List<String> keys, DataType producedDataType) {
    this.metadataKeys = List.copyOf(keys);
    this.produced = producedDataType;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    List<KinesisColumn> columns = new ArrayList<>(physical);
    for (String key : metadataKeys) {
      columns.add(
          KinesisColumn.kinesis(key, RecordColumn.named(KinesisRecordColumn.class, key), false));
    }
    KinesisSource source = KinesisSource.create(settings.name(), settings.sourceOptions(), query);
    KinesisRowDecoder decoder = new KinesisRowDecoder(columns, valueDecoder(settings, physical));
    RowType rowType = (RowType) produced.getLogicalType();
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        // The uid is the source's name, as the runtime requires, and stays stable when the query
        // around the table changes.
        SingleOutputStreamOperator<RowData> rows =
            env.fromSource(source, WatermarkStrategy.<Row>noWatermarks(), settings.name())
                .uid(settings.name())
                .process(decoder)
                .returns(InternalTypeInfo.of(rowType))
                .name("Decode[" + settings.name() + "]")
                .uid(settings.name() + "-rows");
        settings
            .deadLetterTable()
            .ifPresent(
                path ->
                    DeadLetterTable.write(
                        rows, path, query, settings.name(), settings.hadoopConf()));
        return rows;
      }

      @Override
      public boolean isBounded() {
        return false; // an availableNow run ends by itself
      }
    };
  }

  /**
   * The decoder of the data into the {@code columns} that are its fields (none with format raw).
   *
   * @throws io.lakestream.api.error.LakestreamException ({@code SQL_SCHEMA_MISMATCH}) for a column
   *     the Avro schema lacks or has with another type
   */
  static ValueDecoder valueDecoder(KinesisTableSettings settings, List<KinesisColumn> columns) {
    List<ValueField> fields =
        columns.stream().filter(KinesisColumn::isField).map(KinesisColumn::field).toList();
    return settings.avro() == null
        ? ValueDecoder.json(fields)
        : ValueDecoder.avro(fields, settings.avro(), "Kinesis table " + settings.name());
  }

  @Override
  public DynamicTableSource copy() {
    KinesisTableSource copy = new KinesisTableSource(settings, query, physical, produced);
    copy.metadataKeys = metadataKeys;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "Kinesis[" + settings.name() + "]";
  }
}
