package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.KafkaRecord;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.state.query.QueryContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Kafka {@code orders} topic as the bronze and silver pipelines read it: source options default
 * to {@code subscribe=orders} and {@code startingOffsets=earliest}, the user's {@code -o} options
 * override them, and they are validated when the pipeline is built (before any job starts), so a
 * missing broker address or a bad option fails with a message naming it.
 */
@Internal
public final class OrdersTopic {
  /** The source's name and uid in every pipeline that reads the topic. */
  public static final String SOURCE = "orders-kafka";

  private final Map<String, String> sourceOptions;

  private OrdersTopic(Map<String, String> sourceOptions) {
    this.sourceOptions = Collections.unmodifiableMap(sourceOptions);
  }

  /**
   * The topic with the pipeline's source options.
   *
   * @param pipeline the pipeline's name, for the error message
   * @throws IllegalArgumentException if no {@code kafka.bootstrap.servers} is given
   * @throws io.lakestream.api.error.LakestreamException if an option is unknown or invalid
   */
  public static OrdersTopic of(PipelineOptions options, String pipeline) {
    Map<String, String> sourceOptions = new LinkedHashMap<>();
    sourceOptions.put("subscribe", "orders");
    sourceOptions.put("startingOffsets", "earliest");
    // option keys ignore case: a user's StartingOffsets replaces the default startingOffsets
    options
        .sourceOptions()
        .forEach(
            (key, value) -> {
              sourceOptions.keySet().removeIf(key::equalsIgnoreCase);
              sourceOptions.put(key, value);
            });
    if (sourceOptions.keySet().stream().noneMatch("kafka.bootstrap.servers"::equalsIgnoreCase)) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_INVALID_OPTION,
          "pipeline "
              + pipeline
              + " reads Kafka: give the brokers with -o kafka.bootstrap.servers=host:port (and -o"
              + " subscribe=<topic> if it is not 'orders')");
    }
    KafkaSourceBuilder.kafka(SOURCE).options(sourceOptions).sanityCheck();
    return new OrdersTopic(sourceOptions);
  }

  /** The source options in effect (defaults overridden by the user's). */
  public Map<String, String> sourceOptions() {
    return sourceOptions;
  }

  /** The topic's records as a stream of the query (uid {@value #SOURCE}). */
  public DataStream<KafkaRecord> records(StreamExecutionEnvironment env, QueryContext query) {
    return env.fromSource(
            KafkaSourceBuilder.kafka(SOURCE).options(sourceOptions).query(query).build(),
            WatermarkStrategy.noWatermarks(),
            SOURCE)
        .uid(SOURCE);
  }
}
