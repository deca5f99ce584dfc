package io.lakestream.connectors.autoloader.format;

import io.lakestream.api.value.StrictUtf8;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 text stream, split where {@link java.io.BufferedReader#readLine()} splits
 * ({@code \n}, {@code \r} or {@code \r\n}), each checked on its own: a line that is not valid UTF-8
 * is reported as such (with its text decoded with replacement characters, for the error or the
 * {@code _corrupt_record}) instead of being silently changed, as a {@code Reader} would, and the
 * lines after it are read as usual.
 */
final class Utf8Lines {
  private static final int CHUNK = 64 * 1024;

  /** Receives each line. */
  @FunctionalInterface
  interface LineConsumer {
    /**
     * @param text the line without its line break (invalid bytes replaced by U+FFFD)
     * @param validUtf8 whether the line's bytes are valid UTF-8
     * @param number 1-based line number
     */
    void accept(String text, boolean validUtf8, long number) throws IOException;
  }

  private byte[] line = new byte[256];
  private int length;
  private long number;

  private Utf8Lines() {}

  /** Reads {@code in} to its end, passing each line to {@code consumer} in order. */
  static void read(InputStream in, LineConsumer consumer) throws IOException {
    new Utf8Lines().readAll(in, consumer);
  }

  private void readAll(InputStream in, LineConsumer consumer) throws IOException {
    byte[] chunk = new byte[CHUNK];
    boolean afterCr = false;
    int n;
    while ((n = in.read(chunk)) != -1) {
      for (int i = 0; i < n; i++) {
        byte b = chunk[i];
        if (b == '\n' && afterCr) {
          afterCr = false; // the \n of \r\n
        } else if (b == '\n' || b == '\r') {
          emit(consumer);
          afterCr = b == '\r';
        } else {
          append(b);
          afterCr = false;
        }
      }
    }
    if (length > 0) { // a last line without a line break
      emit(consumer);
    }
  }

  private void append(byte b) {
    if (length == line.length) {
      line = Arrays.copyOf(line, line.length * 2);
    }
    line[length++] = b;
  }

  private void emit(LineConsumer consumer) throws IOException {
    String text = new String(line, 0, length, StandardCharsets.UTF_8);
    boolean valid = StrictUtf8.firstInvalidByte(line, 0, length, text) < 0;
    length = 0;
    consumer.accept(text, valid, ++number);
  }
}
