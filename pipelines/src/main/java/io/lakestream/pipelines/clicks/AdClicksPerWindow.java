package io.lakestream.pipelines.clicks;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.files.JsonLinesFileSink;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.operators.watermark.Watermarks;
import io.lakestream.operators.window.WindowAggregate;
import io.lakestream.operators.window.WindowAggregationBuilder;
import io.lakestream.operators.window.WindowSpec;
import io.lakestream.pipelines.KafkaRecordValue;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.query.OutputMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Pipeline E5: Kafka topic {@code clicks} (JSON) -> {@code withWatermark(event_time, 10 minutes)}
 * -> 5-minute tumbling windows by {@code ad_id} -> count, output mode append -> Delta table {@code
 * ad_clicks_5m} (each window written once, when the watermark passes its end); malformed clicks go
 * to {@code ad_clicks_dead_letters}. Source options as for {@code bronze} ({@code -o
 * kafka.bootstrap.servers=...}; {@code subscribe} defaults to {@code clicks}).
 */
@Internal
public final class AdClicksPerWindow implements Pipeline {

  /** The result table: one row per (window, ad). */
  public static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("window_start", ColumnType.TIMESTAMP, false)
          .column("window_end", ColumnType.TIMESTAMP, false)
          .column("ad_id", ColumnType.STRING, false)
          .column("clicks", ColumnType.LONG, false)
          .build();

  public static final Duration WATERMARK_DELAY = Duration.ofMinutes(10);

  @Override
  public String name() {
    return "clicks";
  }

  @Override
  public String description() {
    return "Kafka clicks -> watermark 10m -> 5-minute tumbling counts per ad_id (append) -> Delta"
        + " ad_clicks_5m (E5)";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.processingTime(Duration.ofSeconds(30));
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    Map<String, String> sourceOptions = new LinkedHashMap<>();
    sourceOptions.put("subscribe", "clicks");
    sourceOptions.put("startingOffsets", "earliest");
    sourceOptions.putAll(options.sourceOptions());
    if (!sourceOptions.containsKey("kafka.bootstrap.servers")) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_OPTION,
          "pipeline clicks reads Kafka: give the brokers with -o"
              + " kafka.bootstrap.servers=host:port");
    }
    KafkaSourceBuilder.kafka("clicks-kafka").options(sourceOptions).sanityCheck();
    String table = options.path("ad_clicks_5m");
    String deadLetters = options.path("ad_clicks_dead_letters");
    return (env, query) -> {
      SingleOutputStreamOperator<Click> clicks =
          FromJson.fromJson(
              env.fromSource(
                      KafkaSourceBuilder.kafka("clicks-kafka")
                          .options(sourceOptions)
                          .query(query)
                          .build(),
                      WatermarkStrategy.noWatermarks(),
                      "clicks-kafka")
                  .uid("clicks-kafka"),
              KafkaRecordValue.INSTANCE,
              new ClickJson(),
              TypeInformation.of(Click.class),
              "parse-clicks");
      WindowAggregationBuilder.window(
              Watermarks.withWatermark(
                  clicks, c -> c.eventTimeMillis, WATERMARK_DELAY, "clicks-watermark", query),
              WindowSpec.tumbling("5 minutes"))
          .groupBy(KeyColumns.of("ad_id", (Click c) -> c.adId))
          .outputMode(OutputMode.APPEND)
          .uid("clicks-per-ad")
          .build()
          .sinkTo(
              DeltaSinkBuilder.forTable(table, SCHEMA, AdClicksPerWindow::toRow)
                  .query(query)
                  .sinkName("clicks-sink")
                  .build())
          .uid("clicks-sink")
          .name("ad_clicks_5m Delta table");
      clicks
          .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
          .sinkTo(
              JsonLinesFileSink.create(
                  deadLetters, new OrdersDemo.DeadLetterJson(), query, "clicks-dead-letters"))
          .uid("clicks-dead-letters")
          .name("ad_clicks_dead_letters table");
    };
  }

  static Object[] toRow(WindowAggregate w) {
    return new Object[] {
      w.windowStart(), w.windowEnd(), (String) w.key.get(0), w.count,
    };
  }
}
