package io.lakestream.connectors.kafka.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.state.query.QueryContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link KafkaStreamSource} from options written as in Spark:
 *
 * <pre>{@code
 * KafkaStreamSource source = KafkaSourceBuilder.kafka("orders")
 *     .option("kafka.bootstrap.servers", "broker:9092")
 *     .option("subscribe", "orders")
 *     .option("startingOffsets", "earliest")
 *     .option("maxOffsetsPerTrigger", "10000")
 *     .query(queryContext)
 *     .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").uid("orders");
 * }</pre>
 *
 * <p>{@link #build()} runs {@link #sanityCheck()}: unknown options and bad values fail at once with
 * a {@link io.lakestream.api.error.LakestreamException} naming the option (see {@link
 * KafkaSourceOptions#CATALOG}; keys ignore case), connection settings that cannot work with an
 * {@link io.lakestream.connectors.kafka.security.InvalidKafkaOptionException}.
 */
@PublicEvolving
public final class KafkaSourceBuilder {
  private final String name;
  private final Map<String, String> options = new LinkedHashMap<>();
  private QueryContext query;

  private KafkaSourceBuilder(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * @param name the source's name; use the same string as its operator uid
   */
  public static KafkaSourceBuilder kafka(String name) {
    return new KafkaSourceBuilder(name);
  }

  /**
   * Sets one option (see {@link KafkaSourceOptions}; keys ignore case; {@code kafka.*} goes to the
   * consumer).
   */
  public KafkaSourceBuilder option(String key, String value) {
    options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key));
    return this;
  }

  public KafkaSourceBuilder option(String key, long value) {
    return option(key, Long.toString(value));
  }

  public KafkaSourceBuilder option(String key, boolean value) {
    return option(key, Boolean.toString(value));
  }

  /** Sets several options. */
  public KafkaSourceBuilder options(Map<String, String> more) {
    more.forEach(this::option);
    return this;
  }

  /** The query the source runs in (offsets log, availableNow, group id); optional in tests. */
  public KafkaSourceBuilder query(QueryContext query) {
    this.query = query;
    return this;
  }

  /**
   * Validates the options against {@link KafkaSourceOptions#CATALOG} and resolves them.
   *
   * @throws LakestreamException ({@code CONNECTOR_NAME_MISSING}) for a blank name
   * @throws io.lakestream.api.error.LakestreamException naming the bad option
   */
  public KafkaSourceConfig sanityCheck() {
    if (name.isBlank()) {
      throw new LakestreamException(
          ConnectorErrorClass.CONNECTOR_NAME_MISSING, "Kafka source name must not be blank");
    }
    return KafkaSourceConfig.of(KafkaSourceOptions.CATALOG.validate(options));
  }

  public KafkaStreamSource build() {
    return new KafkaStreamSource(name, sanityCheck(), query);
  }
}
