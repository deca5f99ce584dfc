package io.lakestream.connectors.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The option types parse what the Flink {@code ConfigOption}s they replace parsed, to the same
 * values, and refuse what those refused.
 */
class OptionTypeTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "15m",
        "15 min",
        "50 milliseconds",
        "2 s",
        "90 d",
        "1 d",
        "100",
        "0",
        " 5 s ",
        "5S",
        "5 SECONDS",
        "1h",
        "3 µs",
        "7 ns",
        "1 day",
        "2days",
        "5sec",
        "5secs",
        "12 hours",
        "10 minute",
        "250 ms",
        "-1 s",
        "soon",
        "PT15M",
        "1.5 s",
        "5 mins",
        "",
        "s"
      })
  void durationsParseAsFlinkParsesThem(String text) {
    Duration flink;
    try {
      flink = TimeUtils.parseDuration(text);
    } catch (RuntimeException e) {
      assertThatThrownBy(() -> OptionType.DURATION.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must be a duration");
      return;
    }
    assertThat(OptionType.DURATION.parse(text)).isEqualTo(flink);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "512m",
        "10g",
        "50g",
        "64m",
        "1",
        "0",
        "1 kb",
        "5 mebibytes",
        "3t",
        "1 tb",
        "10 bytes",
        "10b",
        " 4 k ",
        "2 KiB",
        "-1",
        "x",
        "1.5g",
        ""
      })
  void byteSizesParseAsFlinkMemorySizesParse(String text) {
    long flink;
    try {
      flink = MemorySize.parse(text).getBytes();
    } catch (RuntimeException e) {
      assertThatThrownBy(() -> OptionType.BYTE_SIZE.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must be a byte size");
      return;
    }
    assertThat(OptionType.BYTE_SIZE.parse(text)).isEqualTo(flink);
  }

  @Test
  void defaultsAreWrittenInTheirLargestWholeUnitAndParseBack() {
    for (Duration d :
        List.of(
            Duration.ofMillis(100),
            Duration.ofSeconds(30),
            Duration.ofMinutes(15),
            Duration.ofDays(30),
            Duration.ofMillis(1500),
            Duration.ZERO)) {
      assertThat(OptionType.DURATION.parse(OptionType.DURATION.format(d))).isEqualTo(d);
    }
    assertThat(OptionType.DURATION.format(Duration.ofMinutes(15))).isEqualTo("15 min");
    assertThat(OptionType.DURATION.format(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    assertThat(OptionType.BYTE_SIZE.format(50L << 30)).isEqualTo("50g");
    assertThat(OptionType.BYTE_SIZE.format(1000L)).isEqualTo("1000b");
    assertThat(OptionType.BYTE_SIZE.parse("1000b")).isEqualTo(1000L);
  }

  @Test
  void numbersAndBooleansAreStrictButTrimmed() {
    assertThat(OptionType.INT.parse(" 42 ")).isEqualTo(42);
    assertThatThrownBy(() -> OptionType.INT.parse("3000000000"))
        .hasMessage("must be a whole number (an int)");
    assertThat(OptionType.LONG.parse("3000000000")).isEqualTo(3_000_000_000L);
    assertThatThrownBy(() -> OptionType.LONG.parse("1e3")).hasMessageContaining("whole number");
    assertThat(OptionType.BOOLEAN.parse("TRUE")).isTrue();
    assertThatThrownBy(() -> OptionType.BOOLEAN.parse("yes")).hasMessage("must be true or false");
  }

  @Test
  void aChoiceIgnoresCaseAndDashesAndGivesTheDeclaredSpelling() {
    OptionType<String> mode = OptionType.choice("OFF", "DELETE", "MOVE");
    assertThat(mode.parse(" delete ")).isEqualTo("DELETE");
    OptionType<String> guarantee = OptionType.choice("exactly-once", "at-least-once");
    assertThat(guarantee.parse("EXACTLY_ONCE")).isEqualTo("exactly-once");
    assertThatThrownBy(() -> mode.parse("archive")).hasMessage("must be OFF, DELETE or MOVE");
    assertThat(mode.choices()).containsExactly("OFF", "DELETE", "MOVE");
  }
}
