package io.lakestream.api.value;

import io.lakestream.api.annotation.Internal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8: bytes that are not UTF-8 (also encoded surrogates and code points above U+10FFFF)
 * are reported, never replaced with U+FFFD. Callers decode leniently first ({@code new
 * String(bytes, UTF_8)}), which is fast, and ask here only when that text holds U+FFFD: it either
 * was in the value or stands for bytes that are not UTF-8, and only a strict decode tells which.
 */
@Internal
public final class StrictUtf8 {
  private StrictUtf8() {}

  /**
   * The offset (from {@code offset}) of the first byte of {@code bytes[offset, offset+length)} that
   * is not UTF-8, or -1 if all are.
   *
   * @param lenient those bytes decoded with replacement ({@code new String(.., UTF_8)})
   */
  public static int firstInvalidByte(byte[] bytes, int offset, int length, String lenient) {
    if (lenient.indexOf('\uFFFD') < 0) {
      return -1; // the common case: nothing was replaced, so the bytes were valid
    }
    CharsetDecoder strict =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
    try {
      strict.decode(in);
      return -1; // U+FFFD was in the value itself
    } catch (CharacterCodingException e) {
      return in.position() - offset;
    }
  }
}
