package io.lakestream.sql.connector.kafka;

import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.kafka.source.KafkaSourceOptions;
import io.lakestream.connectors.kafka.source.KafkaStreamSource;
import io.lakestream.sql.connector.format.DeadLetterTable;
import io.lakestream.sql.connector.format.RecordColumn;
import io.lakestream.state.query.QueryContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

/**
 * A Kafka topic read by Flink SQL: lakestream's Kafka source ({@link KafkaSourceBuilder}) under the
 * query runtime (offsets in the query's log, {@code maxOffsetsPerTrigger} per epoch, availableNow),
 * each record decoded into the declared columns by {@link KafkaRowDecoder}; with {@code format =
 * 'json'} the records it cannot decode are written to the dead-letter Delta table, exactly once per
 * epoch like any sink. Insert-only.
 */
final class KafkaTableSource implements ScanTableSource, SupportsReadingMetadata {
  private final KafkaTableSettings settings;
  private final QueryContext query;
  private final List<OutputColumn> physical;
  private List<String> metadataKeys = List.of();
  private DataType produced;

  KafkaTableSource(
      KafkaTableSettings settings,
      QueryContext query,
      List<OutputColumn> physical,
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
    return RecordColumn.metadata(KafkaRecordColumn.class);
  }

  @Override
  public void applyReadableMetadata(List<String> keys, DataType producedDataType) {
    this.metadataKeys = List.copyOf(keys);
    this.produced = producedDataType;
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    List<OutputColumn> columns = new ArrayList<>(physical);
    for (String key : metadataKeys) {
      columns.add(OutputColumn.kafka(key, RecordColumn.named(KafkaRecordColumn.class, key), false));
    }
    KafkaStreamSource source =
        KafkaSourceBuilder.kafka(settings.name())
            .options(withHeadersIfRead(columns))
            .query(query)
            .build();
    KafkaRowDecoder decoder = new KafkaRowDecoder(columns, settings.avro(), settings.name());
    RowType rowType = (RowType) produced.getLogicalType();
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        // The uid is the source's name, as the runtime requires, and stays stable when the query
        // around the table changes.
        SingleOutputStreamOperator<RowData> rows =
            env.fromSource(source, WatermarkStrategy.<KafkaRecord>noWatermarks(), settings.name())
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
   * The source's options, with {@code includeHeaders} on when a column reads the headers: Spark
   * needs the option to have the column, here declaring the column is enough.
   */
  private Map<String, String> withHeadersIfRead(List<OutputColumn> columns) {
    Map<String, String> options = new LinkedHashMap<>(settings.kafkaOptions());
    if (columns.stream().noneMatch(c -> c.kafka() == KafkaRecordColumn.HEADERS)) {
      return options;
    }
    String key = KafkaSourceOptions.INCLUDE_HEADERS.key();
    for (Map.Entry<String, String> given : Map.copyOf(options).entrySet()) {
      if (given.getKey().equalsIgnoreCase(key)) {
        if (given.getValue().trim().equalsIgnoreCase("false")) {
          throw KafkaSqlOptions.CATALOG.conflict(
              "Table "
                  + settings.name()
                  + " declares the headers column but sets 'includeHeaders' = 'false': remove"
                  + " the option or the column.");
        }
        options.remove(given.getKey());
      }
    }
    options.put(key, "true");
    return options;
  }

  @Override
  public DynamicTableSource copy() {
    KafkaTableSource copy = new KafkaTableSource(settings, query, physical, produced);
    copy.metadataKeys = metadataKeys;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "Kafka[" + settings.name() + "]";
  }
}
