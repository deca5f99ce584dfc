package io.lakestream.connectors.kinesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.OptionErrorClass;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Options are validated before anything connects, and the secret key is never shown. */
class KinesisSourceOptionsTest {

  private static Map<String, String> options(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("streamName", "clicks");
    map.put("region", "us-east-1");
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  private static String errorClass(Map<String, String> options) {
    try {
      KinesisSourceOptions.parse(options);
      throw new AssertionError("accepted " + options.keySet());
    } catch (LakestreamException e) {
      return e.errorClass();
    }
  }

  @Test
  void defaultsAndCaseInsensitiveKeys() {
    KinesisSourceConfig config =
        KinesisSourceOptions.parse(
            options("INITIALPOSITION", "Earliest", "maxrecordsperfetch", "500"));
    assertThat(config.initialPosition()).isEqualTo("trim_horizon");
    assertThat(config.maxRecordsPerFetch()).isEqualTo(500);
    assertThat(config.shardFetchIntervalMillis()).isEqualTo(1000);
    assertThat(config.maxRecordsPerEpoch()).isEqualTo(Long.MAX_VALUE);
    assertThat(KinesisSourceOptions.parse(options()).initialPosition()).isEqualTo("latest");
  }

  @Test
  void atTimestampTakesAnIsoInstant() {
    KinesisSourceConfig config =
        KinesisSourceOptions.parse(
            options("initialPosition", "{\"at_timestamp\": \"2026-01-02T03:04:05Z\"}"));
    assertThat(config.initialPosition()).isEqualTo("at_timestamp");
    assertThat(config.initialTimestampMillis())
        .isEqualTo(Instant.parse("2026-01-02T03:04:05Z").toEpochMilli());
    KinesisSourceConfig databricks =
        KinesisSourceOptions.parse(
            options(
                "initialPosition",
                "{\"at_timestamp\": \"06/25/2020 10:23:45 PDT\","
                    + " \"format\": \"MM/dd/yyyy HH:mm:ss ZZZ\"}"));
    assertThat(databricks.initialTimestampMillis())
        .isEqualTo(Instant.parse("2020-06-25T17:23:45Z").toEpochMilli());
    assertThatThrownBy(
            () ->
                KinesisSourceOptions.parse(
                    options(
                        "initialPosition",
                        "{\"at_timestamp\": \"2020-06-25\", \"format\": \"MM/dd/yyyy\"}")))
        .hasMessageContaining("does not match its format");
    assertThatThrownBy(
            () ->
                KinesisSourceOptions.parse(
                    options("initialPosition", "{\"at_timestamp\": \"yesterday\"}")))
        .hasMessageContaining("initialPosition")
        .hasMessageContaining("ISO-8601");
  }

  @Test
  void refusesBadValuesNamingTheOption() {
    assertThat(errorClass(options("initialPosition", "oldest")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThat(errorClass(options("maxRecordsPerFetch", "20000")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThat(errorClass(options("endpoint", "not a url")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThat(errorClass(options("streamNme", "x")))
        .isEqualTo(OptionErrorClass.UNKNOWN_OPTION.name());
    Map<String, String> noStream = options();
    noStream.remove("streamName");
    assertThat(errorClass(noStream)).isEqualTo(OptionErrorClass.MISSING_OPTION.name());
  }

  @Test
  void theSecretKeyNeedsItsAccessKeyAndIsNeverShown() {
    String secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    assertThatThrownBy(() -> KinesisSourceOptions.parse(options("awsSecretKey", secret)))
        .hasMessageContaining("awsAccessKey")
        .hasMessageNotContaining(secret);
    KinesisSourceConfig config =
        KinesisSourceOptions.parse(
            options(
                "awsAccessKey",
                "AKIDEXAMPLE",
                "awsSecretKey",
                secret,
                "endpoint",
                "http://127.0.0.1:1"));
    assertThat(config.toString()).contains("AKIDEXAMPLE").doesNotContain(secret);
    assertThat(KinesisSourceOptions.AWS_SECRET_KEY.isSecret()).isTrue();
  }

  @Test
  void efoOptionsAreDatabricksAndNameTheConsumer() {
    assertThat(KinesisSourceOptions.parse(options()).fanOut()).as("polling by default").isNull();
    KinesisSourceConfig.FanOut byQuery =
        KinesisSourceOptions.parse(options("consumermode", "EFO"))
            .withDefaultConsumerName("query-id")
            .fanOut();
    assertThat(byQuery.consumerName()).isEqualTo("query-id");
    assertThat(byQuery.deregister()).isFalse();
    assertThat(byQuery.registeredId()).isNull();
    KinesisSourceConfig.FanOut named =
        KinesisSourceOptions.parse(
                options(
                    "consumerMode", "efo",
                    "consumerName", "app.v2",
                    "requireConsumerDeregistration", "true"))
            .withDefaultConsumerName("query-id")
            .fanOut();
    assertThat(named.consumerName()).isEqualTo("app.v2");
    assertThat(named.deregister()).isTrue();
    KinesisSourceConfig.FanOut registered =
        KinesisSourceOptions.parse(
                options(
                    "consumerMode", "efo",
                    "registeredConsumerId", "arn:aws:kinesis:us-east-1:1:stream/s/consumer/c:1",
                    "registeredConsumerIdType", "ARN"))
            .fanOut();
    assertThat(registered.registeredIdIsArn()).isTrue();
  }

  @Test
  void efoOptionsAreCheckedBeforeAnythingConnects() {
    assertThat(errorClass(options("consumerMode", "push")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThat(errorClass(options("consumerMode", "efo", "consumerName", "has space")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThat(errorClass(options("consumerMode", "efo", "registeredConsumerIdType", "id")))
        .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name());
    assertThatThrownBy(() -> KinesisSourceOptions.parse(options("consumerName", "app")))
        .hasMessageContaining("consumerName needs consumerMode efo")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo(OptionErrorClass.CONFLICTING_OPTIONS.name());
  }
}
