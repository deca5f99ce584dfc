package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TriggerTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "processingTime=30s",
        "processingTime:30 seconds",
        "processingTime('30 seconds')",
        "PROCESSINGTIME = 30s",
        "processingTime=PT30S"
      })
  void processingTimeFormsDatabricksUsersWrite(String text) {
    assertThat(Trigger.parse(text)).isEqualTo(Trigger.processingTime(Duration.ofSeconds(30)));
  }

  @Test
  void theOtherTriggers() {
    assertThat(Trigger.parse(null)).isEqualTo(Trigger.unspecified());
    assertThat(Trigger.parse("default")).isEqualTo(Trigger.unspecified());
    assertThat(Trigger.parse("availableNow")).isEqualTo(Trigger.availableNow());
    assertThat(Trigger.parse("once")).isEqualTo(Trigger.once());
    assertThat(Trigger.parse("realTime=5 minutes"))
        .isEqualTo(Trigger.realTime(Duration.ofMinutes(5)));
  }

  @Test
  void continuousIsRefusedPointingToRealTime() {
    assertThatThrownBy(() -> Trigger.parse("continuous=1s"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("not supported")
        .hasMessageContaining("realTime")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_UNSUPPORTED_TRIGGER");
  }

  @Test
  void badTriggersNameTheValidForms() {
    assertThatThrownBy(() -> Trigger.parse("sometimes"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("valid: default, processingTime=<duration>, availableNow")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
    assertThatThrownBy(() -> Trigger.parse("processingTime"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("needs a duration")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
    assertThatThrownBy(() -> Trigger.parse("availableNow=3s"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("takes no argument")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
    assertThatThrownBy(() -> Trigger.parse("processingTime=0s"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("positive duration")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("QUERY_INVALID_TRIGGER");
  }
}
