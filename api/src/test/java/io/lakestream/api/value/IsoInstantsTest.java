package io.lakestream.api.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast ISO instant parser agrees with {@link Instant#parse} on everything it is given. */
class IsoInstantsTest {

  @Test
  void agreesWithInstantParseOnRandomInstantsOfEveryFractionLength() {
    Random random = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      long seconds = random.nextLong(-30_000_000_000L, 250_000_000_000L);
      int nanos = random.nextInt(1_000_000_000);
      String text = Instant.ofEpochSecond(seconds, nanos).toString(); // 0, 3, 6 or 9 digits
      int cut = random.nextInt(10);
      if (text.contains(".") && cut > 0) { // also 1, 2, 4, 5, 7, 8 fraction digits
        int dot = text.indexOf('.');
        text = text.substring(0, Math.min(dot + 1 + cut, text.length() - 1)) + "Z";
      }
      Instant expected = Instant.parse(text);
      assertThat(IsoInstants.parse(text)).as(text).isEqualTo(expected);
      assertThat(IsoInstants.toEpochMillis(text)).as(text).isEqualTo(expected.toEpochMilli());
    }
  }

  @Test
  void leavesOffsetsLeapDaysAndOddFormsToInstantParse() {
    for (String text :
        new String[] {
          "2026-03-01T10:00:00+02:00",
          "2024-02-29T23:59:59.999Z",
          "2026-01-01T24:00:00Z",
          "2026-01-01T10:00:00.Z",
          "0999-12-31T00:00:00Z",
          "0001-01-01T00:00:00Z",
          "9999-12-31T23:59:59.999999999Z",
          "2026-01-01T00:00:00.5Z"
        }) {
      assertThat(IsoInstants.parse(text)).as(text).isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void rejectsWhatInstantParseRejectsAndInstantsOutsideYears1To9999() {
    for (String text :
        new String[] {
          "2026-02-30T10:00:00Z",
          "2026-13-01T10:00:00Z",
          "2026-01-01T-1:00:00Z",
          "2026-01-01 10:00:00Z",
          "2026-01-01T10:00:00",
          "2026-01-01T10:00:00.1234567890Z",
          "yesterday",
          "+1000000000-01-01T00:00:00Z",
          "+12026-01-01T00:00:00Z",
          "0000-12-31T23:59:59Z",
          "-0001-01-01T00:00:00Z"
        }) {
      assertThatThrownBy(() -> IsoInstants.parse(text))
          .as(text)
          .isInstanceOf(DateTimeParseException.class);
      assertThatThrownBy(() -> IsoInstants.toEpochMillis(text))
          .as(text)
          .isInstanceOf(DateTimeParseException.class);
    }
  }
}
