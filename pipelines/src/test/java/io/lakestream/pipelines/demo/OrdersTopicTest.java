package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineOptions;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrdersTopicTest {
  private static PipelineOptions withSource(Map<String, String> source) {
    return new PipelineOptions(URI.create("file:///tmp/lake/"), 0, 0, 0, source);
  }

  @Test
  void withoutBrokersTheErrorNamesThePipelineAndTheOption() {
    assertThatThrownBy(() -> OrdersTopic.of(withSource(Map.of()), "silver"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("pipeline silver reads Kafka")
        .hasMessageContaining("-o kafka.bootstrap.servers=host:port")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_OPTION");
  }

  @Test
  void aBadSourceOptionIsRefusedBeforeAnyJobStarts() {
    assertThatThrownBy(
            () ->
                OrdersTopic.of(
                    withSource(
                        Map.of(
                            "kafka.bootstrap.servers", "127.0.0.1:9092",
                            "startingOffsets", "yesterday")),
                    "bronze"))
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e -> assertThat(e.errorClass()).isEqualTo("INVALID_OPTION_VALUE"))
        .hasMessageContaining("startingOffsets");
  }

  @Test
  void theUsersOptionsOverrideTheDefaults() {
    OrdersTopic topic =
        OrdersTopic.of(
            withSource(
                Map.of("kafka.bootstrap.servers", "127.0.0.1:9092", "subscribe", "orders-eu")),
            "bronze");
    assertThat(topic.sourceOptions())
        .containsEntry("subscribe", "orders-eu")
        .containsEntry("startingOffsets", "earliest")
        .containsEntry("kafka.bootstrap.servers", "127.0.0.1:9092");
  }
}
