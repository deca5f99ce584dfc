package io.lakestream.pipelines.gold;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSource;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The silver orders table's change data feed as {@link OrderChange}s, the input of the gold
 * pipelines: the table at option {@code path} (default {@code <output>/orders_silver}) read with
 * the Delta CDF source's options (the other {@code -o} options, less those a pipeline keeps for its
 * sink). {@link #of} checks the options and that the table has the feed before any job starts.
 *
 * @param path the silver table (absolute)
 * @param sourceOptions the CDF source's options
 * @param totalAmountType the type of a sum of silver's amounts
 */
@Internal
record SilverFeed(String path, Map<String, String> sourceOptions, ColumnType totalAmountType) {

  /**
   * @param pipeline the pipeline's name, for messages
   * @param sinkOption whether an {@code -o} key belongs to the pipeline's sink
   * @throws LakestreamException ({@code PIPELINE_INVALID_INPUT}) for a bad source option or a
   *     silver table that is missing, lacks a column gold reads, or has no change feed
   */
  static SilverFeed of(PipelineOptions options, String pipeline, Predicate<String> sinkOption) {
    Map<String, String> sourceOptions = new LinkedHashMap<>();
    String givenPath = null;
    for (Map.Entry<String, String> option : options.sourceOptions().entrySet()) {
      String key = option.getKey().toLowerCase(Locale.ROOT); // option keys ignore case
      if (key.equals(OrdersGoldDaily.PATH_OPTION)) {
        givenPath = option.getValue();
      } else if (!sinkOption.test(key)) {
        sourceOptions.put(option.getKey(), option.getValue());
      }
    }
    String path = Locations.absolute(givenPath != null ? givenPath : options.path("orders_silver"));
    ColumnType totalAmountType = OrdersGoldDaily.silverAmountType(path);
    try { // fails before the job starts on a bad option or a silver table without the feed
      DeltaCdfSourceBuilder.forTable(path)
          .name(OrdersGoldDaily.SOURCE_UID)
          .options(sourceOptions)
          .build();
    } catch (DeltaTableException e) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_INPUT,
          "pipeline "
              + pipeline
              + " cannot stream the change feed of the silver table: "
              + e.getMessage(),
          e);
    }
    return new SilverFeed(path, Map.copyOf(sourceOptions), totalAmountType);
  }

  /** The feed as order changes (uids {@code silver-cdf} and {@code silver-changes}). */
  DataStream<OrderChange> changes(StreamExecutionEnvironment env, QueryContext query) {
    DeltaCdfSource source =
        DeltaCdfSourceBuilder.forTable(path)
            .name(OrdersGoldDaily.SOURCE_UID)
            .options(sourceOptions)
            .query(query)
            .build();
    RowTypeInfo rowType = (RowTypeInfo) source.getProducedType();
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), OrdersGoldDaily.SOURCE_UID)
        .uid(OrdersGoldDaily.SOURCE_UID)
        .map(new SilverChanges(rowType))
        .returns(TypeInformation.of(OrderChange.class))
        .uid("silver-changes")
        .name("silver change rows -> order changes");
  }
}
