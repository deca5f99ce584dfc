package io.lakestream.connectors.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kafka.security.InvalidKafkaOptionException;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.ReplayPlan;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class KafkaSinkBuilderTest {

  private static final QueryContext QUERY =
      new QueryContext(
          "q-1", "orders", "run-1", "orders-q-1", "file:///chk", false, false, OutputMode.APPEND);

  @Test
  void transactionalIdPrefixComesFromTheQueryAndSinkName() {
    assertThat(KafkaSinkBuilder.forQuery(QUERY, "out").transactionalIdPrefix())
        .isEqualTo("lakestream-orders-q-1-out");
  }

  @Test
  void optionsAreCheckedNamingTheOption() {
    assertInvalid(Map.of("topicc", "t"), "topicc", "UNKNOWN_OPTION", "(did you mean 'topic'?)");
    assertInvalid(
        Map.of("topic", "t", "kafka.lingr.ms", "5"),
        "kafka.lingr.ms",
        "UNKNOWN_OPTION",
        "'lingr.ms' is not a Kafka producer setting");
    assertInvalid(
        Map.of("topic", "t", "kafka.value.serializer", "x"),
        "kafka.value.serializer",
        "UNSUPPORTED_OPTION",
        "records are bytes from the value column");
    assertInvalid(
        Map.of("topic", "t", "kafka.transactional.id", "x"),
        "kafka.transactional.id",
        "UNSUPPORTED_OPTION",
        "transactional ids come from the query");
    assertInvalid(
        Map.of(), "topic", "MISSING_OPTION", "unless the rows carry their topic (topicColumn");
    assertInvalid(Map.of("topic", " "), "topic", "INVALID_OPTION_VALUE", "must not be blank");
    assertInvalid(
        Map.of("topic", "t", "deliveryGuarantee", "exactly_twice"),
        "deliveryGuarantee",
        "INVALID_OPTION_VALUE",
        "exactly-once or at-least-once");
    assertInvalid(
        Map.of("topic", "t", "kafka.transaction.timeout.ms", "soon"),
        "kafka.transaction.timeout.ms",
        "INVALID_OPTION_VALUE",
        "must be a duration");
    assertInvalid(
        Map.of("topic", "t", "kafka.sasl.mechanism", "PLAIN"),
        "kafka.sasl.mechanism",
        "KAFKA_INVALID_OPTION",
        "applies only when kafka.security.protocol is SASL_PLAINTEXT or SASL_SSL");
    // valid producer settings pass
    builder(Map.of("topic", "t", "kafka.linger.ms", "5", "kafka.compression.type", "zstd"))
        .sanityCheck();
  }

  @Test
  void optionKeysIgnoreCase() {
    KafkaSinkBuilder<Long> builder =
        builder(Map.of("TOPIC", "t", "DeliveryGuarantee", "AT_LEAST_ONCE"))
            .checkpointInterval(Duration.ofMinutes(20));
    // at-least-once (so no transaction timeout rule applies): the keys in other case took effect
    builder.sanityCheck();
    assertInvalid(
        Map.of("Topic", "t", "topic", "u"), "topic", "CONFLICTING_OPTIONS", "is given twice");
  }

  @Test
  void theTransactionTimeoutMustOutlastTheCheckpointInterval() {
    KafkaSinkBuilder<Long> builder =
        builder(Map.of("topic", "t")).checkpointInterval(Duration.ofMinutes(20));
    assertThatThrownBy(builder::sanityCheck)
        .isInstanceOf(InvalidKafkaOptionException.class)
        .hasMessageStartingWith(
            "[KAFKA_INVALID_OPTION] Option 'kafka.transaction.timeout.ms': 900000 ms is too short for a checkpoint"
                + " interval of 1200000 ms")
        .hasMessageContaining("at least 1260000 ms")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");

    builder(Map.of("topic", "t", "kafka.transaction.timeout.ms", "25 min"))
        .checkpointInterval(Duration.ofMinutes(20))
        .sanityCheck();
    // no transactions with at-least-once
    builder(Map.of("topic", "t", "deliveryGuarantee", "at-least-once"))
        .checkpointInterval(Duration.ofMinutes(20))
        .sanityCheck();
  }

  @Test
  void aRealTimeQuerySendsEachRowAtOnceUnlessLingerIsGiven() {
    QueryContext realTime =
        new QueryContext(
            "q-1",
            "orders",
            "run-1",
            "orders-q-1",
            "file:///chk",
            false,
            false,
            OutputMode.APPEND,
            ReplayPlan.NONE,
            true);
    Map<String, String> options = withServers(Map.of("topic", "t"));
    assertThat(sink(realTime, options).producerProperties())
        .containsEntry("linger.ms", KafkaSinkBuilder.REAL_TIME_LINGER_MS);
    assertThat(sink(QUERY, options).producerProperties()).doesNotContainKey("linger.ms");
    Map<String, String> lingering = new HashMap<>(options);
    lingering.put("kafka.linger.ms", "20");
    assertThat(sink(realTime, lingering).producerProperties()).containsEntry("linger.ms", "20");
  }

  private static KafkaSinkBuilder<Long> sink(QueryContext query, Map<String, String> options) {
    return KafkaSinkBuilder.<Long>forQuery(query, "out")
        .options(options)
        .valueString(String::valueOf);
  }

  @Test
  void aValueAndAnOutputModeOtherThanCompleteAreRequired() {
    assertThatThrownBy(
            () ->
                KafkaSinkBuilder.<Long>forQuery(QUERY, "out")
                    .options(withServers(Map.of("topic", "t")))
                    .sanityCheck())
        .hasMessageContaining("needs a value column")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_SINK_INVALID_SETTING");
    QueryContext complete =
        new QueryContext("q", "n", "r", "n-q", "file:///c", false, false, OutputMode.COMPLETE);
    assertThatThrownBy(
            () ->
                KafkaSinkBuilder.<Long>forQuery(complete, "out")
                    .options(withServers(Map.of("topic", "t")))
                    .valueString(String::valueOf)
                    .sanityCheck())
        .hasMessageContaining("output mode complete")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_SINK_INVALID_SETTING");
  }

  @Test
  void recordsTakeTheirColumnsAndTheTopicOptionOverridesTheTopicColumn() throws Exception {
    ColumnRecordSerializer<Long> fromColumn =
        InstantiationUtil.clone(
            new ColumnRecordSerializer<Long>(
                null,
                id -> id < 0 ? null : "t" + (id % 2),
                id -> ("k" + id).getBytes(StandardCharsets.UTF_8),
                id -> ("v" + id).getBytes(StandardCharsets.UTF_8),
                id -> (int) (id % 3)));
    ProducerRecord<byte[], byte[]> record = fromColumn.serialize(7L, null, null);
    assertThat(record.topic()).isEqualTo("t1");
    assertThat(record.partition()).isEqualTo(1);
    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("k7");
    assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("v7");
    assertThatThrownBy(() -> fromColumn.serialize(-1L, null, null))
        .isInstanceOf(KafkaSinkRecordException.class)
        .hasMessageContaining("its topic column is null and option 'topic' is not set")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_SINK_INVALID_RECORD");

    ColumnRecordSerializer<Long> fixed =
        new ColumnRecordSerializer<>("fixed", id -> "ignored", null, id -> null, null);
    ProducerRecord<byte[], byte[]> tombstone = fixed.serialize(1L, null, null);
    assertThat(tombstone.topic()).isEqualTo("fixed");
    assertThat(tombstone.key()).isNull();
    assertThat(tombstone.value()).isNull();
    assertThat(tombstone.partition()).isNull();
  }

  private static void assertInvalid(
      Map<String, String> options, String option, String errorClass, String text) {
    assertThatThrownBy(() -> builder(options).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining(option)
        .hasMessageContaining(text)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo(errorClass);
  }

  private static KafkaSinkBuilder<Long> builder(Map<String, String> options) {
    return KafkaSinkBuilder.<Long>forQuery(QUERY, "out")
        .options(withServers(options))
        .valueString(String::valueOf);
  }

  private static Map<String, String> withServers(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("kafka.bootstrap.servers", "127.0.0.1:9092");
    return all;
  }
}
