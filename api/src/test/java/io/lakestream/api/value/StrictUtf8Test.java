package io.lakestream.api.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class StrictUtf8Test {
  private static int firstInvalid(byte[] bytes) {
    return StrictUtf8.firstInvalidByte(
        bytes, 0, bytes.length, new String(bytes, StandardCharsets.UTF_8));
  }

  @Test
  void validTextAndAReplacementCharacterOfTheValueItselfAreValid() {
    assertThat(firstInvalid("plain ascii".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    assertThat(firstInvalid("çà € 𝄞 \uFFFD".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
  }

  @Test
  void bytesThatAreNotUtf8AreReportedAtTheirOffset() {
    assertThat(firstInvalid(new byte[] {'a', 'b', (byte) 0xC3})).isEqualTo(2); // truncated
    assertThat(firstInvalid(new byte[] {'a', (byte) 0xFF, 'b'})).isEqualTo(1);
    // an encoded surrogate (U+D800) and a code point above U+10FFFF
    assertThat(firstInvalid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).isEqualTo(0);
    assertThat(firstInvalid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}))
        .isEqualTo(0);
  }

  @Test
  void aSliceIsJudgedAlone() {
    byte[] bytes = {(byte) 0xFF, 'o', 'k', (byte) 0xFF, 'x'};
    String slice = new String(bytes, 1, 2, StandardCharsets.UTF_8);
    assertThat(StrictUtf8.firstInvalidByte(bytes, 1, 2, slice)).isEqualTo(-1);
    String longer = new String(bytes, 1, 4, StandardCharsets.UTF_8);
    assertThat(StrictUtf8.firstInvalidByte(bytes, 1, 4, longer)).isEqualTo(2);
  }

  @Test
  void theTimestampRangeIsYearsOneTo9999() {
    assertThat(TimestampRange.contains(Instant.parse("0001-01-01T00:00:00Z"))).isTrue();
    assertThat(TimestampRange.contains(Instant.parse("9999-12-31T23:59:59.999999999Z"))).isTrue();
    assertThat(TimestampRange.contains(Instant.parse("0000-12-31T23:59:59Z"))).isFalse();
    assertThat(TimestampRange.contains(Instant.parse("+10000-01-01T00:00:00Z"))).isFalse();
    assertThat(TimestampRange.contains(LocalDate.of(1, 1, 1))).isTrue();
    assertThat(TimestampRange.contains(LocalDate.of(10000, 1, 1))).isFalse();
  }
}
