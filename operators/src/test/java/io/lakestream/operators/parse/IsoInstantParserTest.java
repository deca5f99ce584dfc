package io.lakestream.operators.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;

/**
 * The event-time parser gives {@code Instant.parse(text).toEpochMilli()}: fractions below a
 * millisecond truncated, before 1970 too, and bad text refused (the parsing itself is {@link
 * io.lakestream.api.value.IsoInstants}', tested there against {@code Instant.parse} at length).
 */
class IsoInstantParserTest {
  @Test
  void givesEpochMillisAsInstantDoes() {
    for (String text :
        new String[] {
          "2026-03-01T10:00:00Z",
          "2026-03-01T10:00:00.123999Z",
          "1969-12-31T23:59:59.9999Z",
          "1500-06-01T00:00:00.5Z",
          "2026-03-01T10:00:00+02:00"
        }) {
      assertThat(IsoInstantParser.toEpochMillis(text))
          .as(text)
          .isEqualTo(Instant.parse(text).toEpochMilli());
    }
    assertThatThrownBy(() -> IsoInstantParser.toEpochMillis("+12026-01-01T00:00:00Z"))
        .isInstanceOf(DateTimeParseException.class);
  }
}
