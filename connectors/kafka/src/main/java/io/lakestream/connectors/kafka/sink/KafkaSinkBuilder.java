package io.lakestream.connectors.kafka.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.connectors.kafka.KafkaErrorClass;
import io.lakestream.connectors.kafka.security.InvalidKafkaOptionException;
import io.lakestream.connectors.kafka.security.KafkaClientSecurity;
import io.lakestream.connectors.kafka.security.KafkaClusterInfo;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a Kafka sink that writes each row as one record (key, value, topic and optional partition
 * taken from the row's columns) with Flink's {@link KafkaSink}.
 *
 * <p><b>Exactly-once</b> (default, option {@code deliveryGuarantee=exactly-once}): each parallel
 * writer writes an epoch's rows in a Kafka transaction that is committed when the epoch's
 * checkpoint completes; after a failure the open transactions are aborted and the epoch is
 * replayed, so a consumer with {@code isolation.level=read_committed} sees every row exactly once.
 * Rows become visible only at checkpoints, so checkpointing must be enabled. The transactional id
 * prefix is {@code lakestream-<appId>-<sinkName>}: stable for the query's checkpoint location (so a
 * restarted query aborts its own lingering transactions) and distinct for every query and sink (so
 * two queries never fence each other).
 *
 * <p><b>At-least-once</b> ({@code deliveryGuarantee=at-least-once}): rows are sent immediately and
 * flushed before each checkpoint completes; a replay after a failure may write a row again.
 *
 * <p><b>realTime queries</b>: the producer's {@code linger.ms} is {@link #REAL_TIME_LINGER_MS}
 * unless {@code kafka.linger.ms} is given, so a row is sent as soon as it is written (Kafka 4's
 * default of 5 ms waits to fill batches).
 *
 * <p><b>Transaction timeout rule.</b> A transaction stays open from an epoch's first row until the
 * commit after its checkpoint, so {@code kafka.transaction.timeout.ms} (default 15 min) must be
 * <em>longer</em> than the checkpoint interval plus the longest checkpoint and recovery time:
 * otherwise the broker aborts a pre-committed transaction and that epoch's rows are lost. It must
 * also be <em>at most</em> the brokers' {@code transaction.max.timeout.ms} (Kafka and MSK default:
 * 15 min), otherwise every producer fails at start with {@code InvalidTxnTimeoutException}. {@link
 * #build()} checks both eagerly: against the broker's actual limit when the login may describe
 * broker configs (else against Kafka's default), and against {@link #checkpointInterval} plus
 * {@link #MIN_TIMEOUT_MARGIN} when the interval is given.
 *
 * <p>{@link #build()} fails with a {@link LakestreamException} naming the option for a bad option
 * (keys are checked by {@link KafkaSinkOptions#CATALOG} and ignore case; a transaction timeout that
 * cannot work is an {@link InvalidKafkaOptionException}), and, when the connection check is on
 * (default), with {@link io.lakestream.connectors.kafka.security.KafkaAuthenticationException} if
 * the brokers refuse the login or {@link
 * io.lakestream.connectors.kafka.security.KafkaUnreachableException} if they do not answer. A row
 * without a topic fails the job with {@link KafkaSinkRecordException}.
 *
 * @param <IN> the stream's element type
 */
@PublicEvolving
public final class KafkaSinkBuilder<IN> {

  /** Kafka's default {@code transaction.max.timeout.ms}, assumed when the broker's is unknown. */
  public static final Duration KAFKA_DEFAULT_TRANSACTION_MAX_TIMEOUT = Duration.ofMinutes(15);

  /** What the transaction timeout must exceed the checkpoint interval by, at least. */
  public static final Duration MIN_TIMEOUT_MARGIN = Duration.ofMinutes(1);

  /** How long {@link #build()} waits for the brokers in the connection check. */
  public static final Duration CONNECTION_CHECK_TIMEOUT = Duration.ofSeconds(30);

  /** The producer's {@code linger.ms} in a realTime query unless {@code kafka.linger.ms} is set. */
  public static final String REAL_TIME_LINGER_MS = "0";

  private static final Logger LOG = LoggerFactory.getLogger(KafkaSinkBuilder.class);

  private final QueryContext query;
  private final String sinkName;
  private Map<String, String> options = Map.of();
  private KafkaColumn<IN, byte[]> key;
  private KafkaColumn<IN, byte[]> value;
  private KafkaColumn<IN, String> topicColumn;
  private KafkaColumn<IN, Integer> partitionColumn;
  private Duration checkpointInterval;
  private boolean checkConnection = true;

  private KafkaSinkBuilder(QueryContext query, String sinkName) {
    this.query = Objects.requireNonNull(query, "query");
    this.sinkName = Objects.requireNonNull(sinkName, "sinkName");
  }

  /**
   * A sink of {@code query} named {@code sinkName}: the name is its operator uid and part of its
   * transactional id prefix, so keep it stable across restarts.
   */
  public static <IN> KafkaSinkBuilder<IN> forQuery(QueryContext query, String sinkName) {
    return new KafkaSinkBuilder<>(query, sinkName);
  }

  /**
   * The user's options: {@code kafka.*} connection and producer settings, {@code topic}, {@code
   * deliveryGuarantee} ({@link KafkaSinkOptions#CATALOG}; keys ignore case). Unknown options are
   * refused by {@link #sanityCheck()}, naming the closest valid one.
   */
  public KafkaSinkBuilder<IN> options(Map<String, String> options) {
    this.options = Map.copyOf(options);
    return this;
  }

  /** The record value (required); a null value writes a tombstone. */
  public KafkaSinkBuilder<IN> value(KafkaColumn<IN, byte[]> value) {
    this.value = value;
    return this;
  }

  /** The record value as UTF-8 text. */
  public KafkaSinkBuilder<IN> valueString(KafkaColumn<IN, String> value) {
    Objects.requireNonNull(value, "value");
    this.value = row -> utf8(value.get(row));
    return this;
  }

  /** The record key (optional: without it records have no key). */
  public KafkaSinkBuilder<IN> key(KafkaColumn<IN, byte[]> key) {
    this.key = key;
    return this;
  }

  /** The record key as UTF-8 text. */
  public KafkaSinkBuilder<IN> keyString(KafkaColumn<IN, String> key) {
    Objects.requireNonNull(key, "key");
    this.key = row -> utf8(key.get(row));
    return this;
  }

  /** The topic of each row, used when option {@code topic} is not set. */
  public KafkaSinkBuilder<IN> topicColumn(KafkaColumn<IN, String> topic) {
    this.topicColumn = topic;
    return this;
  }

  /** The partition of each row (optional: by default Kafka's partitioner picks it). */
  public KafkaSinkBuilder<IN> partitionColumn(KafkaColumn<IN, Integer> partition) {
    this.partitionColumn = partition;
    return this;
  }

  /** The query's checkpoint interval, to check the transaction timeout against it. */
  public KafkaSinkBuilder<IN> checkpointInterval(Duration interval) {
    this.checkpointInterval = interval;
    return this;
  }

  /**
   * Whether {@link #build()} connects to the brokers to check the login and their transaction
   * timeout limit (default true). Turn it off only where the building host cannot reach Kafka.
   */
  public KafkaSinkBuilder<IN> checkConnection(boolean check) {
    this.checkConnection = check;
    return this;
  }

  /**
   * Checks everything that can be checked without the brokers.
   *
   * @throws LakestreamException naming the option at fault: an {@link
   *     io.lakestream.connectors.options.OptionErrorClass} class for a key or value the catalog
   *     refuses, {@code KAFKA_INVALID_OPTION} ({@link InvalidKafkaOptionException}) for a
   *     connection setting or transaction timeout that cannot work, {@code
   *     KAFKA_SINK_INVALID_SETTING} if a required column or the query's output mode is wrong
   */
  public void sanityCheck() {
    settings();
  }

  /**
   * Checks the options (and, unless turned off, the brokers) and builds the sink; see the class
   * comment for what fails and how.
   */
  public KafkaSink<IN> build() {
    Settings settings = settings();
    if (checkConnection) {
      KafkaClusterInfo cluster =
          KafkaClusterInfo.fetch(settings.security(), CONNECTION_CHECK_TIMEOUT);
      if (settings.guarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
        checkBrokerLimit(settings.transactionTimeout(), cluster);
      }
    }
    Properties producer = producerProperties(settings);
    var builder =
        KafkaSink.<IN>builder()
            .setBootstrapServers(String.join(",", settings.security().bootstrapServers()))
            .setKafkaProducerConfig(producer)
            .setDeliveryGuarantee(settings.guarantee())
            .setRecordSerializer(
                new ColumnRecordSerializer<>(
                    settings.topic(), topicColumn, key, value, partitionColumn));
    if (settings.guarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
      builder.setTransactionalIdPrefix(transactionalIdPrefix());
    }
    LOG.info(
        "Kafka sink {} of query {}: {} to {} via {}",
        sinkName,
        query.queryName(),
        settings.guarantee(),
        settings.topic() == null ? "the topic column" : "topic " + settings.topic(),
        settings.security());
    return builder.build();
  }

  /**
   * The producer's properties: connection, the {@code kafka.*} producer settings, the transaction
   * timeout and, in a realTime query, {@link #REAL_TIME_LINGER_MS} unless {@code kafka.linger.ms}
   * is given. Checks the options as {@link #sanityCheck()} does.
   */
  Properties producerProperties() {
    return producerProperties(settings());
  }

  private Properties producerProperties(Settings settings) {
    Properties producer = settings.security().clientProperties();
    producer.putAll(settings.producerSettings());
    if (query.realTime()) {
      // low latency over batching: Kafka 4's default linger.ms (5 ms) would delay every row
      producer.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, REAL_TIME_LINGER_MS);
    }
    producer.put(
        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
        String.valueOf(settings.transactionTimeout().toMillis()));
    return producer;
  }

  /** Builds the sink and attaches it to {@code stream} with uid and name {@code sinkName}. */
  public DataStreamSink<IN> sinkTo(DataStream<IN> stream) {
    return stream.sinkTo(build()).uid(sinkName).name(sinkName);
  }

  /** The transactional id prefix: {@code lakestream-<appId>-<sinkName>}. */
  public String transactionalIdPrefix() {
    return "lakestream-" + query.appId() + "-" + sinkName;
  }

  // ---------------------------------------------------------------------------------------------

  private record Settings(
      KafkaClientSecurity security,
      String topic,
      DeliveryGuarantee guarantee,
      Duration transactionTimeout,
      Map<String, String> producerSettings) {}

  private Settings settings() {
    if (sinkName.isBlank()) {
      throw new LakestreamException(
          ConnectorErrorClass.CONNECTOR_NAME_MISSING,
          "the Kafka sink needs a non-blank sinkName (its uid)");
    }
    if (value == null) {
      throw new LakestreamException(
          KafkaErrorClass.KAFKA_SINK_INVALID_SETTING,
          "Kafka sink " + sinkName + " needs a value column: call value(...) or valueString(...)");
    }
    if (query.outputMode() == OutputMode.COMPLETE) {
      throw new LakestreamException(
          KafkaErrorClass.KAFKA_SINK_INVALID_SETTING,
          "Kafka sink "
              + sinkName
              + ": output mode complete would append the whole result to the topic every epoch;"
              + " use append or update");
    }
    OptionValues values = KafkaSinkOptions.CATALOG.validate(options, "for Kafka sink " + sinkName);
    Map<String, String> producerSettings = producerSettings(values);
    KafkaClientSecurity security = KafkaClientSecurity.fromOptions(values.toMap());
    String topic = values.get(KafkaSinkOptions.TOPIC);
    if (topic == null && topicColumn == null) {
      throw values
          .catalog()
          .failure(
              OptionErrorClass.MISSING_OPTION,
              KafkaSinkOptions.TOPIC.key(),
              "option topic is required for Kafka sink "
                  + sinkName
                  + " unless the rows carry their topic (topicColumn(...))");
    }
    DeliveryGuarantee guarantee =
        values.get(KafkaSinkOptions.DELIVERY_GUARANTEE).equals("exactly-once")
            ? DeliveryGuarantee.EXACTLY_ONCE
            : DeliveryGuarantee.AT_LEAST_ONCE;
    Duration timeout = values.get(KafkaSinkOptions.TRANSACTION_TIMEOUT);
    if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
      checkAgainstInterval(timeout);
    }
    return new Settings(security, topic, guarantee, timeout, producerSettings);
  }

  /**
   * The {@code kafka.*} options that are producer settings (without the prefix); the connection
   * options and the transaction timeout are not among them. A setting Kafka's producer does not
   * know is an unknown option.
   */
  private static Map<String, String> producerSettings(OptionValues values) {
    Map<String, String> settings = new LinkedHashMap<>();
    Set<String> producerNames = ProducerConfig.configNames();
    values
        .passThrough(KafkaSinkOptions.KAFKA_PREFIX)
        .forEach(
            (setting, text) -> {
              String key = KafkaSinkOptions.KAFKA_PREFIX + setting;
              if (values.catalog().find(key).isPresent()) {
                return; // a declared option (connection, transaction timeout)
              }
              if (!producerNames.contains(setting)) {
                throw values
                    .catalog()
                    .failure(
                        OptionErrorClass.UNKNOWN_OPTION,
                        key,
                        "option "
                            + key
                            + ": '"
                            + setting
                            + "' is not a Kafka producer setting; check the spelling (producer"
                            + " settings are case-sensitive, e.g. kafka.linger.ms)");
              }
              settings.put(setting, text);
            });
    return settings;
  }

  private void checkAgainstInterval(Duration timeout) {
    if (checkpointInterval == null) {
      return;
    }
    Duration minimum = checkpointInterval.plus(MIN_TIMEOUT_MARGIN);
    if (timeout.compareTo(minimum) < 0) {
      throw new InvalidKafkaOptionException(
          KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
          timeout.toMillis()
              + " ms is too short for a checkpoint interval of "
              + checkpointInterval.toMillis()
              + " ms: each epoch's transaction stays open for the interval plus the checkpoint"
              + " and recovery time, and the broker would abort it (losing the epoch's rows). Set"
              + " it to at least "
              + minimum.toMillis()
              + " ms (and at most the brokers' transaction.max.timeout.ms), or checkpoint more"
              + " often");
    }
  }

  private static void checkBrokerLimit(Duration timeout, KafkaClusterInfo cluster) {
    long limit =
        cluster.transactionMaxTimeoutMs().orElse(KAFKA_DEFAULT_TRANSACTION_MAX_TIMEOUT.toMillis());
    if (timeout.toMillis() > limit) {
      throw new InvalidKafkaOptionException(
          KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
          timeout.toMillis()
              + " ms exceeds the brokers' "
              + KafkaClusterInfo.TRANSACTION_MAX_TIMEOUT
              + " of "
              + limit
              + " ms"
              + (cluster.transactionMaxTimeoutMs().isPresent()
                  ? ""
                  : " (Kafka's default; the broker's own value could not be read)")
              + ", so every producer would fail at start: lower it to at most "
              + limit
              + " ms or raise the brokers' "
              + KafkaClusterInfo.TRANSACTION_MAX_TIMEOUT);
    }
  }

  private static byte[] utf8(String text) {
    return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
  }
}
