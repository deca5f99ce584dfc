package io.lakestream.connectors.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSourceOptionsTest {

  private static Map<String, String> base() {
    Map<String, String> o = new HashMap<>();
    o.put("kafka.bootstrap.servers", "127.0.0.1:9092");
    o.put("subscribe", "orders");
    return o;
  }

  /** The options as the builder checks them. */
  private static KafkaSourceConfig validate(Map<String, String> options) {
    return KafkaSourceBuilder.kafka("orders").options(options).sanityCheck();
  }

  private static KafkaSourceConfig with(String key, String value) {
    Map<String, String> o = base();
    o.put(key, value);
    return validate(o);
  }

  @Test
  void defaultsAreSparks() {
    KafkaSourceConfig c = validate(base());
    assertThat(c.startingOffsets().toString()).isEqualTo("startingOffsets=latest");
    assertThat(c.failOnDataLoss()).isTrue();
    assertThat(c.maxTriggerDelay()).isEqualTo(Duration.ofMinutes(15));
    assertThat(c.rateLimited()).isFalse();
    assertThat(c.topics().topics()).containsExactly("orders");
  }

  @Test
  void kafkaOptionsPassThroughWithoutPrefix() {
    KafkaSourceConfig c = with("kafka.max.poll.records", "10000");
    assertThat(c.clientProperties())
        .containsEntry("max.poll.records", "10000")
        .containsEntry("security.protocol", "PLAINTEXT")
        .containsEntry("bootstrap.servers", "127.0.0.1:9092");
  }

  @Test
  void securityOptionsAreCheckedAndNormalisedWithoutPrintingTheSecret() {
    Map<String, String> o = base();
    o.put("kafka.security.protocol", "SASL_SSL");
    o.put("kafka.sasl.mechanism", "SCRAM-SHA-512");
    o.put(
        "kafka.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"etl\" password=\"s3cr3t-pw\";");
    KafkaSourceConfig c = validate(o);
    assertThat(c.clientProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
    assertThat(c.toString()).doesNotContain("s3cr3t-pw");

    o.remove("kafka.sasl.jaas.config");
    assertThatThrownBy(() -> validate(o))
        .hasMessageContaining("kafka.sasl.jaas.config")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
  }

  @Test
  void anMskPortThatDoesNotMatchTheModeIsRefused() {
    Map<String, String> o = base();
    o.put("kafka.bootstrap.servers", "b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com:9092");
    o.put("kafka.security.protocol", "SASL_SSL");
    o.put("kafka.sasl.mechanism", "AWS_MSK_IAM");
    assertThatThrownBy(() -> validate(o))
        .hasMessageContaining("9098")
        .hasMessageContaining("kafka.bootstrap.servers")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("KAFKA_INVALID_OPTION");
  }

  @Test
  void unknownOptionListsTheValidOnes() {
    assertThatThrownBy(() -> with("maxOffsetPerTrigger", "10"))
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("[maxOffsetPerTrigger]")
        .hasMessageContaining("maxOffsetsPerTrigger")
        .hasMessageContaining("startingOffsets")
        .hasMessageContaining("kafka.*");
  }

  @Test
  void badValuesNameTheOption() {
    assertThatThrownBy(() -> with("maxOffsetsPerTrigger", "lots"))
        .hasMessageContaining("maxOffsetsPerTrigger")
        .hasMessageContaining("lots")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> with("maxOffsetsPerTrigger", "0"))
        .hasMessageContaining("maxOffsetsPerTrigger must be a positive")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> with("failOnDataLoss", "maybe"))
        .hasMessageContaining("failOnDataLoss")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> with("maxTriggerDelay", "soon"))
        .hasMessageContaining("maxTriggerDelay")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> with("startingOffsets", "beginning"))
        .hasMessageContaining("startingOffsets")
        .hasMessageContaining("earliest")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
    assertThatThrownBy(() -> with("startingOffsets", "{\"orders\":{\"0\":-3}}"))
        .hasMessageContaining("-2 (earliest) or -1 (latest)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void minAboveMaxIsRefused() {
    Map<String, String> o = base();
    o.put("maxOffsetsPerTrigger", "10");
    o.put("minOffsetsPerTrigger", "20");
    assertThatThrownBy(() -> validate(o))
        .hasMessageContaining("minOffsetsPerTrigger (20) must not exceed maxOffsetsPerTrigger (10)")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
  }

  @Test
  void exactlyOneTopicSelection() {
    assertThatThrownBy(() -> with("subscribePattern", "ord.*"))
        .hasMessageContaining("exactly one of the options subscribe, subscribePattern, assign")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CONFLICTING_OPTIONS");
    Map<String, String> none = base();
    none.remove("subscribe");
    assertThatThrownBy(() -> validate(none))
        .hasMessageContaining("none was given")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("MISSING_OPTION");
  }

  @Test
  void bootstrapServersRequired() {
    Map<String, String> o = base();
    o.remove("kafka.bootstrap.servers");
    assertThatThrownBy(() -> validate(o))
        .hasMessageContaining("kafka.bootstrap.servers is required")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("MISSING_OPTION");
  }

  @Test
  void optionsTheSourceOwnsAreRefusedWithTheAlternative() {
    assertThatThrownBy(() -> with("kafka.auto.offset.reset", "earliest"))
        .hasMessageContaining("kafka.auto.offset.reset is not supported")
        .hasMessageContaining("startingOffsets")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("UNSUPPORTED_OPTION");
    assertThatThrownBy(() -> with("kafka.enable.auto.commit", "true"))
        .hasMessageContaining("committed on each completed checkpoint")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("UNSUPPORTED_OPTION");
  }

  @Test
  void startingTimestampWinsAndAssignParses() {
    Map<String, String> o = base();
    o.remove("subscribe");
    o.put("assign", "{\"orders\":[0,2]}");
    o.put("startingTimestamp", "1700000000000");
    o.put("startingOffsets", "earliest");
    KafkaSourceConfig c = validate(o);
    assertThat(c.startingOffsets().toString()).isEqualTo("startingTimestamp=1700000000000");
    assertThat(c.topics().assignedPartitions())
        .extracting(Object::toString)
        .containsExactly("orders-0", "orders-2");
    o.put("assign", "orders");
    assertThatThrownBy(() -> validate(o))
        .hasMessageContaining("assign must be JSON")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void groupIdIsGivenOrDerivedFromTheQuery() {
    assertThat(validate(base()).groupId("q1", "orders"))
        .isEqualTo("lakestream-kafka-source-q1-orders");
    assertThat(with("kafka.group.id", "mine").groupId("q1", "orders")).isEqualTo("mine");
  }
}
