package io.lakestream.sql.connector.delta;

import io.delta.kernel.Snapshot;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTypes;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.source.DeltaSource;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.state.query.QueryContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Delta table read by Flink SQL: the Delta source ({@link DeltaSourceBuilder}) of the table,
 * streaming (the snapshot, then every later version) or bounded (a {@code versionAsOf} / {@code
 * timestampAsOf} read, or the latest version in batch mode), its rows converted to the declared
 * columns. Insert-only.
 *
 * <p>Projection push-down: the source reads only the columns the query uses ({@link
 * DeltaSourceBuilder#columns}). Filter push-down: the filters {@link FilterExpressions} translates
 * become the source's {@link DeltaSourceBuilder#filter}, which skips the data files none of whose
 * rows can match, by partition values and file statistics. As it skips files, not rows, every
 * filter also stays with Flink, which filters the rows of the files read.
 */
final class DeltaTableSource
    implements ScanTableSource, SupportsProjectionPushDown, SupportsFilterPushDown {
  private final DeltaTableSettings settings;
  private final QueryContext query; // null outside the query runtime
  private final boolean batch;
  private final DataType declared;
  private DataType produced;
  private DeltaFilter filter; // null: read every file

  DeltaTableSource(
      DeltaTableSettings settings, QueryContext query, DataType physicalRow, boolean batch) {
    this(settings, query, physicalRow, physicalRow, null, batch);
  }

  private DeltaTableSource(
      DeltaTableSettings settings,
      QueryContext query,
      DataType declared,
      DataType produced,
      DeltaFilter filter,
      boolean batch) {
    this.settings = settings;
    this.query = query;
    this.declared = declared;
    this.produced = produced;
    this.filter = filter;
    this.batch = batch;
  }

  @Override
  public ChangelogMode getChangelogMode() {
    return ChangelogMode.insertOnly();
  }

  @Override
  public boolean supportsNestedProjection() {
    return false;
  }

  @Override
  public void applyProjection(int[][] projectedFields, DataType producedDataType) {
    this.produced = producedDataType;
  }

  /** Takes the filters it can translate; all of them remain for Flink (files are skipped). */
  @Override
  public Result applyFilters(List<ResolvedExpression> filters) {
    List<ResolvedExpression> accepted = new ArrayList<>();
    List<DeltaFilter> pushed = new ArrayList<>();
    if (filter != null) {
      pushed.add(filter);
    }
    for (ResolvedExpression expression : filters) {
      FilterExpressions.toDeltaFilter(expression)
          .ifPresent(
              f -> {
                accepted.add(expression);
                pushed.add(f);
              });
    }
    if (!pushed.isEmpty()) {
      filter = pushed.size() == 1 ? pushed.get(0) : new DeltaFilter.And(pushed);
    }
    return Result.of(accepted, filters);
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    DeltaTable table = DeltaTable.forPath(settings.path(), settings.hadoopConf());
    Map<String, String> options = new LinkedHashMap<>(settings.plainSourceOptions());
    Snapshot snapshot = readSnapshot(table, options);
    if (batch && !isTimeTravel(options)) {
      options.put(DeltaSourceOptions.VERSION_AS_OF.key(), Long.toString(snapshot.getVersion()));
    }
    RowSchema stored = DeltaTypes.fromKernel(snapshot.getSchema());
    // every declared column is checked, also those the query does not read
    DeclaredColumns.positions(
        FlinkTypes.toRowSchema((RowType) declared.getLogicalType(), settings.name()),
        stored,
        settings.name(),
        table.path());
    RowType rowType = (RowType) produced.getLogicalType();
    String[] columns =
        readColumns(
            DeclaredColumns.positions(
                FlinkTypes.toRowSchema(rowType, settings.name()),
                stored,
                settings.name(),
                table.path()),
            stored,
            snapshot.getPartitionColumnNames());
    boolean bounded = isTimeTravel(options);
    // the source's rows hold the produced columns, in their order
    RowConversion toRowData =
        RowConversion.inserts(
            IntStream.range(0, rowType.getFieldCount()).toArray(),
            context.createDataStructureConverter(FlinkTypes.withObjectArrays(produced)));
    return new DataStreamScanProvider() {
      @Override
      public DataStream<RowData> produceDataStream(
          ProviderContext provider, StreamExecutionEnvironment env) {
        DeltaSource source =
            DeltaSourceBuilder.forTable(settings.path())
                .name(settings.name())
                .options(options)
                .hadoopConf(settings.hadoopConf())
                .columns(columns)
                .filter(filter)
                .query(query)
                .build();
        // The uid is the source's name, as the runtime requires; a table name stays stable when
        // the query around it changes, where the planner's node ids would not.
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), settings.name())
            .uid(settings.name())
            .map(toRowData)
            .returns(InternalTypeInfo.of(rowType))
            .name("ToRowData[" + settings.name() + "]")
            .uid(settings.name() + "-rows");
      }

      @Override
      public boolean isBounded() {
        return bounded;
      }
    };
  }

  /**
   * The stored names of the columns at {@code positions}; with none (a query that only counts
   * rows), one column to count rows with: a partition column, which no data file is decoded for.
   */
  private static String[] readColumns(int[] positions, RowSchema stored, List<String> partitions) {
    if (positions.length == 0) {
      return new String[] {partitions.isEmpty() ? stored.column(0).name() : partitions.get(0)};
    }
    return IntStream.of(positions).mapToObj(p -> stored.column(p).name()).toArray(String[]::new);
  }

  private static boolean isTimeTravel(Map<String, String> options) {
    return sourceOption(options, DeltaSourceOptions.VERSION_AS_OF.key()) != null
        || sourceOption(options, DeltaSourceOptions.TIMESTAMP_AS_OF.key()) != null;
  }

  private static String sourceOption(Map<String, String> options, String key) {
    return options.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(key))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }

  private Snapshot readSnapshot(DeltaTable table, Map<String, String> options) {
    OptionValues values = DeltaSourceOptions.CATALOG.validate(options, "for " + settings.name());
    DeltaTableReader reader = new DeltaTableReader(table);
    if (values.contains(DeltaSourceOptions.VERSION_AS_OF)) {
      return reader.snapshotAtVersion(values.get(DeltaSourceOptions.VERSION_AS_OF));
    }
    if (values.contains(DeltaSourceOptions.TIMESTAMP_AS_OF)) {
      Instant at = Instant.parse(values.get(DeltaSourceOptions.TIMESTAMP_AS_OF));
      return reader.snapshotAtVersion(reader.versionAsOf(at));
    }
    return DeclaredColumns.latestSnapshot(table, settings.name());
  }

  @Override
  public DynamicTableSource copy() {
    return new DeltaTableSource(settings, query, declared, produced, filter, batch);
  }

  @Override
  public String asSummaryString() {
    return "Delta[" + settings.path() + "]";
  }
}
