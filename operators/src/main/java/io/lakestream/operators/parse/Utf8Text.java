package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.value.StrictUtf8;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 for record values: bytes that are not UTF-8 (also encoded surrogates and code points
 * above U+10FFFF, which Jackson's byte parser lets through) are a {@link RecordParseException},
 * never text with U+FFFD in their place.
 */
@PublicEvolving
public final class Utf8Text {
  private Utf8Text() {}

  /**
   * Checks that {@code raw} is UTF-8, for parsers that read the bytes themselves. ASCII (the common
   * case) is one pass over the bytes; only a value with other bytes is decoded.
   *
   * @throws RecordParseException as {@link #decode}
   */
  public static void requireValid(byte[] raw) throws RecordParseException {
    for (byte b : raw) {
      if (b < 0) {
        decode(raw);
        return;
      }
    }
  }

  /**
   * The text of {@code raw}.
   *
   * @throws RecordParseException naming the offset of the first byte that is not UTF-8
   */
  public static String decode(byte[] raw) throws RecordParseException {
    String text = new String(raw, StandardCharsets.UTF_8);
    int invalid = StrictUtf8.firstInvalidByte(raw, 0, raw.length, text);
    if (invalid >= 0) {
      throw new RecordParseException(
          "the value is not valid UTF-8 (invalid byte near offset " + invalid + ")");
    }
    return text;
  }
}
