package io.lakestream.sql;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.dedup.WatermarkDeduplicator;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.ValuesTypeInfo;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.EventTimeExtractor;
import io.lakestream.operators.watermark.Watermarks;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Structured Streaming's {@code dropDuplicatesWithinWatermark} in a SQL script, written in the
 * shape of Flink's table-valued functions:
 *
 * <pre>{@code
 * CREATE TEMPORARY VIEW orders_unique AS
 * SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR(event_id)));
 * }</pre>
 *
 * <p>The view holds the rows of {@code orders} less the duplicates of a key (the columns in {@code
 * DESCRIPTOR}) seen while the key's first event time plus the table's watermark delay is above the
 * watermark, with {@code orders}' columns and rowtime attribute (so windows and joins still work on
 * it). It runs lakestream's {@link WatermarkDeduplicator}, the operator of the DataStream API: its
 * state holds a key only until the watermark passes it, where Flink SQL's {@code ROW_NUMBER}
 * deduplication keeps every key forever (or until a processing-time TTL, which drops duplicates
 * that arrive late in processing time but early in event time). Rows behind the watermark are
 * dropped and counted, as Spark drops them. The operator's uid is {@code drop-duplicates-<view>}.
 *
 * <p>The delay is the one the table declares: {@code WATERMARK FOR ts AS ts - INTERVAL '1' HOUR}
 * (or {@code AS ts}, delay 0). Planning fails with {@link SqlErrorClass#SQL_INVALID_DEDUPLICATION},
 * naming the fix, when the input has no watermark, its delay is not of that form (a view, a
 * computed watermark), a key column is missing or of a type that cannot key state, or the statement
 * is not a temporary view of this shape.
 */
final class DropDuplicatesView {
  private static final String NAME = "DROP_?DUPLICATES_?WITHIN_?WATERMARK";
  private static final String IDENTIFIER = "(?:`[^`]+`|[\\w$]+)(?:\\s*\\.\\s*(?:`[^`]+`|[\\w$]+))*";
  private static final Pattern MENTION = Pattern.compile("(?is).*\\b" + NAME + "\\s*\\(.*");
  private static final Pattern VIEW =
      Pattern.compile(
          "(?is)\\s*CREATE\\s+TEMPORARY\\s+VIEW\\s+("
              + IDENTIFIER
              + ")\\s+AS\\s+SELECT\\s+\\*\\s+FROM\\s+TABLE\\s*\\(\\s*"
              + NAME
              + "\\s*\\(\\s*TABLE\\s+("
              + IDENTIFIER
              + ")\\s*,\\s*DESCRIPTOR\\s*\\(([^)]*)\\)\\s*\\)\\s*\\)\\s*");

  private final String view;
  private final String input;
  private final List<String> keys;

  private DropDuplicatesView(String view, String input, List<String> keys) {
    this.view = view;
    this.input = input;
    this.keys = keys;
  }

  /** Whether {@code statement} names {@code DROP_DUPLICATES_WITHIN_WATERMARK}. */
  static boolean isNamedIn(SqlScript.Statement statement) {
    return MENTION.matcher(statement.text()).matches();
  }

  /**
   * The deduplication {@code statement} declares.
   *
   * @throws LakestreamException ({@link SqlErrorClass#SQL_INVALID_DEDUPLICATION}) when it is not a
   *     temporary view of its own of the documented shape
   */
  static DropDuplicatesView of(SqlScript.Statement statement) {
    Matcher view = VIEW.matcher(statement.text());
    if (!view.matches()) {
      throw invalid(
          "DROP_DUPLICATES_WITHIN_WATERMARK is written as a temporary view of its own: CREATE"
              + " TEMPORARY VIEW <view> AS SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK("
              + "TABLE <table>, DESCRIPTOR(<key columns>))); then select from the view.");
    }
    List<String> keys =
        Arrays.stream(view.group(3).split(","))
            .map(String::strip)
            .map(DropDuplicatesView::unquote)
            .filter(k -> !k.isEmpty())
            .toList();
    if (keys.isEmpty()) {
      throw invalid("DESCRIPTOR() names no key column: name the columns to key by.");
    }
    return new DropDuplicatesView(unquote(view.group(1)), view.group(2), keys);
  }

  /** The view's name. */
  String view() {
    return view;
  }

  /** The key columns, as declared. */
  List<String> keys() {
    return keys;
  }

  /** The deduplicator's uid. */
  String uid() {
    return "drop-duplicates-" + view;
  }

  /**
   * Registers the view in {@code tables} as a plain view of its input, after the checks {@link
   * #register} makes: the shape the statements are compiled against ({@code CompiledPlan} cannot
   * hold a view read from a DataStream), replaced by the deduplication before the job is built.
   */
  void registerPlain(StreamTableEnvironment tables) {
    Table table = tables.from(input);
    ResolvedSchema schema = table.getResolvedSchema();
    delayMillis(watermarkOf(schema));
    keyColumns((RowType) schema.toPhysicalRowDataType().getLogicalType());
    tables.createTemporaryView(view, table);
  }

  /** Replaces the view {@link #registerPlain} registered by the deduplication. */
  void replacePlain(StreamTableEnvironment tables) {
    tables.dropTemporaryView(view);
    register(tables);
  }

  /** Registers the view in {@code tables}. */
  void register(StreamTableEnvironment tables) {
    Table table = tables.from(input);
    ResolvedSchema schema = table.getResolvedSchema();
    WatermarkSpec watermark = watermarkOf(schema);
    Duration delay = Duration.ofMillis(delayMillis(watermark));
    RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
    DataStream<RowData> rows =
        tables.toDataStream(table, schema.toPhysicalRowDataType().bridgedTo(RowData.class));
    String uid = uid();
    DataStream<RowData> watermarked =
        Watermarks.withWatermark(
            rows,
            eventTime(rowType, indexOf(rowType, watermark.getRowtimeAttribute())),
            delay,
            uid + "-watermark");
    DataStream<RowData> unique =
        watermarked
            .keyBy(keyColumns(rowType), ValuesTypeInfo.INSTANCE)
            .transform(
                StateMetrics.operatorName("dropDuplicatesWithinWatermark(" + keys + ")"),
                rows.getType(),
                new WatermarkDeduplicator<>(delay.toMillis(), uid, null))
            .uid(uid);
    tables.createTemporaryView(
        view, tables.fromDataStream(unique, schemaOf(schema, watermark.getRowtimeAttribute())));
  }

  /**
   * The rowtime column's milliseconds; a null one counts as the earliest time (late, dropped and
   * counted by the deduplicator, as Spark drops rows without an event time).
   */
  private static EventTimeExtractor<RowData> eventTime(RowType rowType, int field) {
    LogicalType type = rowType.getTypeAt(field);
    int precision =
        type instanceof TimestampType t
            ? t.getPrecision()
            : ((LocalZonedTimestampType) type).getPrecision();
    return row ->
        row.isNullAt(field) ? Long.MIN_VALUE : row.getTimestamp(field, precision).getMillisecond();
  }

  private WatermarkSpec watermarkOf(ResolvedSchema schema) {
    if (schema.getWatermarkSpecs().isEmpty()) {
      throw invalid(
          input
              + " declares no watermark, so no key would ever be freed. Declare one on the table,"
              + " e.g. WATERMARK FOR order_ts AS order_ts - INTERVAL '1' HOUR (the delay is how"
              + " long duplicates are dropped), or apply DROP_DUPLICATES_WITHIN_WATERMARK to the"
              + " table that declares it rather than to a view of it.");
    }
    return schema.getWatermarkSpecs().get(0);
  }

  /** The delay of {@code WATERMARK FOR ts AS ts - INTERVAL ...} (0 for {@code AS ts}). */
  private long delayMillis(WatermarkSpec watermark) {
    String rowtime = watermark.getRowtimeAttribute();
    String expression = watermark.getWatermarkExpression().asSerializableString();
    Matcher delay = delayPattern(rowtime).matcher(expression);
    if (delay.matches()) {
      Optional<Duration> interval =
          delay.group(1) == null
              ? Optional.of(Duration.ZERO)
              : IntervalText.parse(delay.group(2), delay.group(3));
      if (interval.isPresent()) {
        return interval.get().toMillis();
      }
    }
    throw invalid(
        "the watermark of "
            + input
            + " is "
            + expression
            + ", whose delay DROP_DUPLICATES_WITHIN_WATERMARK cannot tell: declare it as WATERMARK"
            + " FOR "
            + rowtime
            + " AS "
            + rowtime
            + " - INTERVAL '<n>' <unit> (SECOND, MINUTE, HOUR or DAY).");
  }

  /** {@code `ts`} or {@code `ts` - INTERVAL '<text>' <qualifier>}, as the planner prints them. */
  private static Pattern delayPattern(String rowtime) {
    return Pattern.compile(
        "(?is)\\s*`?"
            + Pattern.quote(rowtime)
            + "`?\\s*(-\\s*INTERVAL\\s*'([^']*)'\\s*([A-Z]+(?:\\(\\d+\\))?"
            + "(?:\\s+TO\\s+[A-Z]+(?:\\(\\d+\\))?)?))?\\s*");
  }

  private KeyColumns<RowData> keyColumns(RowType rowType) {
    KeyColumns<RowData> columns = null;
    for (String key : keys) {
      int position = indexOf(rowType, key);
      KeyColumns.Column<RowData> column = keyValue(rowType.getTypeAt(position), position, key);
      columns = columns == null ? KeyColumns.of(key, column) : columns.and(key, column);
    }
    return columns;
  }

  private int indexOf(RowType rowType, String key) {
    List<String> names = rowType.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(key)) {
        return i;
      }
    }
    throw invalid(
        "DESCRIPTOR names '" + key + "', which is not a column of " + input + ": " + names);
  }

  /** A key column's value as a state key value: text, integers, floating point, booleans. */
  private KeyColumns.Column<RowData> keyValue(LogicalType type, int field, String key) {
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> row -> row.isNullAt(field) ? null : row.getString(field).toString();
      case BOOLEAN -> row -> row.isNullAt(field) ? null : row.getBoolean(field);
      case TINYINT -> row -> row.isNullAt(field) ? null : (long) row.getByte(field);
      case SMALLINT -> row -> row.isNullAt(field) ? null : (long) row.getShort(field);
      case INTEGER, DATE -> row -> row.isNullAt(field) ? null : (long) row.getInt(field);
      case BIGINT -> row -> row.isNullAt(field) ? null : row.getLong(field);
      case FLOAT -> row -> row.isNullAt(field) ? null : (double) row.getFloat(field);
      case DOUBLE -> row -> row.isNullAt(field) ? null : row.getDouble(field);
      default ->
          throw invalid(
              "key column '"
                  + key
                  + "' is "
                  + type.asSummaryString()
                  + "; key by text, integer, floating-point, boolean or date columns (cast it, e.g."
                  + " CAST(amount AS STRING), in a view first).");
    };
  }

  /** The input's physical columns, its rowtime column's watermark taken from the stream. */
  private static Schema schemaOf(ResolvedSchema schema, String rowtime) {
    Schema.Builder builder = Schema.newBuilder();
    for (Column column : schema.getColumns()) {
      if (column.isPhysical()) {
        builder.column(column.getName(), plain(column.getDataType()));
      }
    }
    return builder.watermark(rowtime, "SOURCE_WATERMARK()").build();
  }

  /** The type without its time attribute kind (the new view declares its own). */
  private static DataType plain(DataType type) {
    LogicalType logical = type.getLogicalType();
    DataType plain =
        switch (logical.getTypeRoot()) {
          case TIMESTAMP_WITHOUT_TIME_ZONE ->
              DataTypes.TIMESTAMP(((TimestampType) logical).getPrecision());
          case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
              DataTypes.TIMESTAMP_LTZ(((LocalZonedTimestampType) logical).getPrecision());
          default -> type;
        };
    return logical.isNullable() ? plain.nullable() : plain.notNull();
  }

  private static String unquote(String identifier) {
    String stripped = identifier.strip();
    return stripped.startsWith("`") && stripped.endsWith("`") && stripped.length() > 1
        ? stripped.substring(1, stripped.length() - 1)
        : stripped;
  }

  private static LakestreamException invalid(String detail) {
    return new LakestreamException(SqlErrorClass.SQL_INVALID_DEDUPLICATION, detail);
  }
}
