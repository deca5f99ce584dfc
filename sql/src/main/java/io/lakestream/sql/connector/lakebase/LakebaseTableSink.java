package io.lakestream.sql.connector.lakebase;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.LakebaseSinkConfig;
import io.lakestream.connectors.lakebase.PostgresTypes;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.connector.TableOptions;
import io.lakestream.sql.types.FlinkTypes;
import io.lakestream.sql.types.RowDataFields;
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
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A PostgreSQL (Lakebase) table written by Flink SQL through the DataStream Lakebase sink ({@link
 * LakebaseSinkBuilder}), as {@link LakebaseTableFactory} describes. Options, keys, output mode and
 * column types are checked when it is created; the key is settled (the PostgreSQL table inspected,
 * nothing created) when the planner asks for the changelog mode; the table is created or checked
 * against the key when the planner asks for the runtime provider, before any job runs.
 */
final class LakebaseTableSink implements DynamicTableSink {
  private final String name;
  private final Map<String, String> options;
  private final QueryContext query; // null outside the query runtime
  private final LakebaseSchema schema;
  private final RowType rowType;
  private final List<String> declaredKey; // the DDL's PRIMARY KEY, empty if none
  private final LakebaseSinkConfig config;
  private List<String> key; // null until settled

  private LakebaseTableSink(
      String name,
      Map<String, String> options,
      QueryContext query,
      LakebaseSchema schema,
      RowType rowType,
      List<String> declaredKey,
      LakebaseSinkConfig config,
      List<String> key) {
    this.name = name;
    this.options = options;
    this.query = query;
    this.schema = schema;
    this.rowType = rowType;
    this.declaredKey = declaredKey;
    this.config = config;
    this.key = key;
  }

  /**
   * The sink of a declared table, checked without connecting: options, output mode, the declared
   * key against option upsertkey, column types.
   *
   * @param query the running query, or null in a plain TableEnvironment
   * @throws LakestreamException naming the option, key or column to change
   */
  static LakebaseTableSink create(
      TableOptions options, ResolvedSchema declared, QueryContext query) {
    RowType rowType = (RowType) declared.toPhysicalRowDataType().getLogicalType();
    List<String> declaredKey =
        declared.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
    LakebaseSchema schema = schemaOf(declared, options.table());
    LakebaseSinkConfig config =
        builder(options.table(), options.given(), query, schema, rowType, declaredKey)
            .sanityCheck();
    return new LakebaseTableSink(
        options.table(), options.given(), query, schema, rowType, declaredKey, config, null);
  }

  private static LakebaseSchema schemaOf(ResolvedSchema declared, String table) {
    RowSchema columns = FlinkTypes.toRowSchema(declared, table);
    for (Column column : columns.columns()) {
      if (!PostgresTypes.SUPPORTED.supports(column.type())) {
        throw unsupported(column.name(), declared, table);
      }
    }
    return LakebaseSchema.of(columns);
  }

  private static LakestreamException unsupported(
      String column, ResolvedSchema declared, String table) {
    return FlinkTypes.unsupportedColumn(
        column,
        table,
        declared.getColumn(column).orElseThrow().getDataType().getLogicalType().asSummaryString(),
        "the Lakebase sink does not write",
        "STRING, BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP(p), TIMESTAMP_LTZ(p),"
            + " BYTES");
  }

  private static LakebaseSinkBuilder<RowData> builder(
      String name,
      Map<String, String> options,
      QueryContext query,
      LakebaseSchema schema,
      RowType rowType,
      List<String> declaredKey) {
    LakebaseSinkBuilder<RowData> builder =
        LakebaseSinkBuilder.forSchema(schema, RowDataFields.of(rowType))
            .options(options)
            .query(query);
    return declaredKey.isEmpty()
        ? builder
        : builder.declaredKey(declaredKey, "the PRIMARY KEY of " + name);
  }

  private LakebaseSinkBuilder<RowData> builder() {
    return builder(name, options, query, schema, rowType, declaredKey);
  }

  /** The DDL's key, else option upsertkey, else the PostgreSQL table's primary key; or none. */
  private List<String> key() {
    if (key == null) {
      key = builder().upsertKey();
    }
    return key;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    if (!key().isEmpty()) {
      return ChangelogMode.upsert();
    }
    for (RowKind kind : requestedMode.getContainedKinds()) {
      if (kind != RowKind.INSERT) {
        throw new LakestreamException(
            SqlErrorClass.SQL_UPDATES_INTO_APPEND_ONLY_TABLE,
            "The query writes updates or deletes ("
                + requestedMode
                + ") into "
                + name
                + ", a Lakebase table without a key, which takes inserts only. Make the query"
                + " append-only (e.g. a windowed aggregation instead of a running one), or declare"
                + " PRIMARY KEY (...) NOT ENFORCED on the table (or option upsertkey, or a primary"
                + " key on the PostgreSQL table "
                + config.table()
                + ") to upsert and delete by key.");
      }
    }
    return ChangelogMode.insertOnly();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    LakebaseSinkBuilder<RowData> builder = builder();
    if (!key().isEmpty()) {
      builder.deletes(LakebaseTableSink::deletesKey);
    }
    LakebaseSink<RowData> sink = builder.build(); // creates or checks the table now
    int[] keyPositions =
        sink.statement().key().stream().mapToInt(rowType.getFieldNames()::indexOf).toArray();
    return new DataStreamSinkProvider() {
      @Override
      public DataStreamSink<?> consumeDataStream(
          ProviderContext provider, DataStream<RowData> rows) {
        DataStream<RowData> input =
            keyPositions.length == 0
                ? rows
                : rows.keyBy(RowDataFields.byKey(rowType, keyPositions));
        return input.sinkTo(sink).uid(name).name("LakebaseSink[" + name + "]");
      }
    };
  }

  /** A delete, or the old row of an update (its key's new row, if any, follows it). */
  private static boolean deletesKey(RowData row) {
    return row.getRowKind() == RowKind.DELETE || row.getRowKind() == RowKind.UPDATE_BEFORE;
  }

  @Override
  public DynamicTableSink copy() {
    return new LakebaseTableSink(name, options, query, schema, rowType, declaredKey, config, key);
  }

  @Override
  public String asSummaryString() {
    return "LakebaseSink[" + config.table() + "]";
  }
}
