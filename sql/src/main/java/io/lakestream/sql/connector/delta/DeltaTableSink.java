package io.lakestream.sql.connector.delta;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.sql.types.RowDataFields;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A Delta table written by Flink SQL: the exactly-once Delta sink ({@link DeltaSinkBuilder}), one
 * Delta version per epoch tagged {@code txn(appId, epoch)}, the table created from the declared
 * columns, {@code PARTITIONED BY} and {@code delta.*} properties if missing (or checked against
 * them, with {@code mergeSchema} evolved). Without a primary key it takes inserts only: a query
 * that sends updates or deletes is refused at planning time. With {@code PRIMARY KEY (...) NOT
 * ENFORCED} it takes a changelog and applies each epoch as one MERGE by key ({@link
 * DeltaUpsertFunction}): upserts update or insert, deletes remove, the newest change of a key in
 * the epoch wins, change data files are written where the table has the change data feed.
 */
final class DeltaTableSink implements DynamicTableSink, SupportsPartitioning {
  private final DeltaTableSettings settings;
  private final QueryContext query;
  private final DeltaTableSchema schema;
  private final RowType rowType;
  private final List<String> primaryKey; // empty: append only

  DeltaTableSink(
      DeltaTableSettings settings,
      QueryContext query,
      ResolvedSchema declared,
      List<String> partitionKeys) {
    this(
        settings,
        query,
        tableSchema(settings, declared, partitionKeys),
        rowTypeOf(declared),
        declared.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of()));
  }

  private DeltaTableSink(
      DeltaTableSettings settings,
      QueryContext query,
      DeltaTableSchema schema,
      RowType rowType,
      List<String> primaryKey) {
    this.settings = settings;
    this.query = query;
    this.schema = schema;
    this.rowType = rowType;
    this.primaryKey = List.copyOf(primaryKey);
    if (!primaryKey.isEmpty()) {
      checkUpsertSettings();
    }
  }

  private void checkUpsertSettings() {
    if (settings.mergeSchema()) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SINK_SETTING,
          "Table "
              + settings.name()
              + " has a PRIMARY KEY, so each epoch is a MERGE, which does not evolve the table's"
              + " schema: remove 'mergeSchema', or add the columns with ALTER TABLE first.");
    }
    if (query.outputMode() == OutputMode.COMPLETE) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_UNSUPPORTED_OUTPUT_MODE,
          "Table "
              + settings.name()
              + " has a PRIMARY KEY: its epochs upsert by key, which output mode complete (every"
              + " epoch replaces the table) contradicts. Use output mode append (the default).");
    }
  }

  private static RowType rowTypeOf(ResolvedSchema declared) {
    return (RowType) declared.toPhysicalRowDataType().getLogicalType();
  }

  private static DeltaTableSchema tableSchema(
      DeltaTableSettings settings, ResolvedSchema declared, List<String> partitionKeys) {
    DeltaTableSchema.Builder builder =
        DeltaTableSchema.builder().columns(FlinkTypes.toRowSchema(declared, settings.name()));
    builder.partitionedBy(partitionKeys.toArray(new String[0]));
    settings.properties().forEach(builder::property);
    return builder.build();
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    if (!primaryKey.isEmpty()) {
      return ChangelogMode.upsert();
    }
    for (RowKind kind : requestedMode.getContainedKinds()) {
      if (kind != RowKind.INSERT) {
        throw new LakestreamException(
            SqlErrorClass.SQL_UPDATES_INTO_APPEND_ONLY_TABLE,
            "The query writes updates or deletes ("
                + requestedMode
                + ") into "
                + settings.name()
                + ", a Delta table without a primary key, which takes appends only. Make the"
                + " query append-only (e.g. a windowed aggregation instead of a running one),"
                + " or declare PRIMARY KEY (...) NOT ENFORCED on the table to upsert with a MERGE"
                + " per epoch.");
      }
    }
    return ChangelogMode.insertOnly();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    return primaryKey.isEmpty() ? appendProvider() : upsertProvider();
  }

  /** Each epoch one MERGE: the writers stage the changes, partitioned by key. */
  private SinkRuntimeProvider upsertProvider() {
    DeltaTable table = DeltaTable.forPath(settings.path(), settings.hadoopConf());
    table.ensureExists(schema); // now, before any task runs, as the append sink does
    EpochSink<RowData, DeltaWrittenFile> sink =
        ForeachBatchSinkBuilder.forStaging(
                stagingPath(), DeltaUpsertFunction.stagingSchema(schema), new ChangeFields(rowType))
            .function(new DeltaUpsertFunction(table, schema, primaryKey, query.appId()))
            .query(query)
            .sinkName(settings.name())
            .hadoopConf(settings.hadoopConf())
            .build();
    int[] keyPositions = primaryKey.stream().mapToInt(schema::indexOf).toArray();
    return new DataStreamSinkProvider() {
      @Override
      public DataStreamSink<?> consumeDataStream(
          ProviderContext provider, DataStream<RowData> rows) {
        return rows.keyBy(RowDataFields.byKey(rowType, keyPositions))
            .sinkTo(sink)
            .uid(settings.name())
            .name("DeltaMerge[" + settings.name() + "]");
      }
    };
  }

  /** Below the query's checkpoint location, private to the query. */
  private String stagingPath() {
    return query.checkpointLocation().replaceAll("/+$", "")
        + "/foreach-batch/"
        + EpochLog.fileName(settings.name());
  }

  private SinkRuntimeProvider appendProvider() {
    EpochSink<RowData, DeltaWrittenFile> sink =
        DeltaSinkBuilder.forTable(settings.path(), schema, RowDataFields.of(rowType))
            .query(query)
            .sinkName(settings.name())
            .hadoopConf(settings.hadoopConf())
            .mergeSchema(settings.mergeSchema())
            .autoCompact(settings.autoCompact())
            .build();
    return new DataStreamSinkProvider() {
      @Override
      public DataStreamSink<?> consumeDataStream(
          ProviderContext provider, DataStream<RowData> rows) {
        return rows.sinkTo(sink).uid(settings.name()).name("DeltaSink[" + settings.name() + "]");
      }
    };
  }

  @Override
  public void applyStaticPartition(Map<String, String> partition) {
    // The planner fills static partition columns into the rows; the writer partitions by value.
  }

  @Override
  public boolean requiresPartitionGrouping(boolean supportsGrouping) {
    return false;
  }

  @Override
  public DynamicTableSink copy() {
    return new DeltaTableSink(settings, query, schema, rowType, primaryKey);
  }

  @Override
  public String asSummaryString() {
    return "DeltaSink[" + settings.path() + "]";
  }
}
