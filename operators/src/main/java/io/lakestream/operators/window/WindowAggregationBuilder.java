package io.lakestream.operators.window;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.row.ValuesTypeInfo;
import io.lakestream.operators.state.StateMetrics;
import io.lakestream.operators.watermark.UpstreamWatermark;
import io.lakestream.state.query.OutputMode;
import java.util.Locale;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds {@code groupBy(window(eventTime, size[, slide]), keys...).agg(count, sum, min, max, avg)}
 * with an output mode, as a {@link WindowAggregationOperator}:
 *
 * <pre>{@code
 * DataStream<WindowAggregate> counts =
 *     WindowAggregationBuilder.window(watermarkedClicks, WindowSpec.tumbling("5 minutes"))
 *         .groupBy(KeyColumns.of("ad_id", (Click c) -> c.adId))
 *         .outputMode(OutputMode.APPEND)
 *         .uid("clicks-per-ad")
 *         .build();
 * }</pre>
 *
 * <p>{@link #build()} checks eagerly: a uid and the group columns are required; append and update
 * mode need a watermark on every input ({@link
 * io.lakestream.operators.watermark.MissingWatermarkException} otherwise, as Structured Streaming
 * refuses them); complete mode logs a warning that its state is never dropped.
 *
 * @param <T> the input row type
 */
@PublicEvolving
public final class WindowAggregationBuilder<T> {
  private static final Logger LOG = LoggerFactory.getLogger(WindowAggregationBuilder.class);

  private final DataStream<T> stream;
  private final WindowSpec windows;
  private KeyColumns<T> keys;
  private ValueColumn<T> column;
  private String columnName;
  private EventTimeMicros<T> eventTimeMicros;
  private OutputMode mode = OutputMode.APPEND;
  private OutputTag<T> lateRows;
  private String uid;

  private WindowAggregationBuilder(DataStream<T> stream, WindowSpec windows) {
    this.stream = Objects.requireNonNull(stream, "stream");
    this.windows = Objects.requireNonNull(windows, "windows");
  }

  /** Starts a windowed aggregation of {@code stream} over {@code windows}. */
  public static <T> WindowAggregationBuilder<T> window(DataStream<T> stream, WindowSpec windows) {
    return new WindowAggregationBuilder<>(stream, windows);
  }

  /** The group columns besides the window (required; use a constant column for none). */
  public WindowAggregationBuilder<T> groupBy(KeyColumns<T> keys) {
    this.keys = keys;
    return this;
  }

  /** The column that sum/min/max/avg aggregate; without it only count(*) is computed. */
  public WindowAggregationBuilder<T> aggregate(String name, ValueColumn<T> column) {
    this.columnName = name;
    this.column = column;
    return this;
  }

  /** Event time in microseconds (for sub-millisecond windows); default: the row's timestamp. */
  public WindowAggregationBuilder<T> eventTimeMicros(EventTimeMicros<T> eventTimeMicros) {
    this.eventTimeMicros = eventTimeMicros;
    return this;
  }

  /** The output mode; default {@link OutputMode#APPEND}. */
  public WindowAggregationBuilder<T> outputMode(OutputMode mode) {
    this.mode = mode;
    return this;
  }

  /** Sends late rows here instead of dropping them (they are counted either way). */
  public WindowAggregationBuilder<T> lateRowsTo(OutputTag<T> lateRows) {
    this.lateRows = lateRows;
    return this;
  }

  /** The operator uid (required: the state lives under it); also names its metric group. */
  public WindowAggregationBuilder<T> uid(String uid) {
    this.uid = uid;
    return this;
  }

  /** Checks the settings and adds the operator. */
  public SingleOutputStreamOperator<WindowAggregate> build() {
    sanityCheck();
    String what = "window aggregation in " + mode.name().toLowerCase(Locale.ROOT) + " mode";
    if (mode == OutputMode.COMPLETE) {
      LOG.warn(
          "{} ({}): complete mode keeps every window of every group in state and never drops"
              + " any, so state grows with event time. Use append or update mode with a"
              + " watermark to bound it.",
          what,
          uid);
    } else {
      UpstreamWatermark.of(stream).require(what);
    }
    String name =
        "window("
            + windows
            + ") groupBy("
            + keys
            + ")"
            + (column == null ? " count" : " agg(" + columnName + ")")
            + " "
            + mode.name().toLowerCase(Locale.ROOT);
    return stream
        .keyBy(keys, ValuesTypeInfo.INSTANCE)
        .transform(
            StateMetrics.operatorName(name),
            TypeInformation.of(WindowAggregate.class),
            new WindowAggregationOperator<>(windows, column, eventTimeMicros, mode, uid, lateRows))
        .uid(uid);
  }

  private void sanityCheck() {
    if (uid == null || uid.isBlank()) {
      throw new LakestreamException(
          OperatorErrorClass.OPERATOR_UID_MISSING,
          "a window aggregation needs an explicit uid: its state is stored under it. Set"
              + " WindowAggregationBuilder.uid(\"...\").");
    }
    if (keys == null) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_AGGREGATION,
          "window aggregation ("
              + uid
              + "): set the group columns with groupBy(KeyColumns.of(...)).");
    }
    Objects.requireNonNull(mode, "outputMode");
    if (column != null && (columnName == null || columnName.isBlank())) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_AGGREGATION,
          "window aggregation (" + uid + "): the aggregated column needs a name");
    }
    if (lateRows != null && mode == OutputMode.COMPLETE) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_WINDOW_AGGREGATION,
          "window aggregation ("
              + uid
              + "): complete mode drops no late rows, so lateRowsTo(...) does not apply");
    }
  }
}
