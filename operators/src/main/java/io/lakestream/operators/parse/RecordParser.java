package io.lakestream.operators.parse;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Turns one raw input record into a typed row.
 *
 * <p>Implementations must be deterministic (a replayed epoch parses the same way) and must signal
 * bad input with {@link RecordParseException} rather than returning {@code null} or dropping it, so
 * the record can be routed to the dead-letter output with the reason.
 *
 * @param <T> the parsed row type
 */
@PublicEvolving
@FunctionalInterface
public interface RecordParser<T> extends Serializable {

  /**
   * Parses one record.
   *
   * @throws RecordParseException when the record is malformed or fails a declared check; the
   *     message says what is wrong in user terms (field, expected, actual)
   */
  T parse(String raw) throws RecordParseException;

  /**
   * Parses one record given as UTF-8 bytes (a Kafka value). The default decodes the bytes strictly
   * and calls {@link #parse(String)}: bytes that are not valid UTF-8 are a {@link
   * RecordParseException}, never text with replacement characters. Parsers that can read bytes
   * directly (a streaming JSON parser) override it to skip the decoding. Both must accept and
   * reject the same records.
   *
   * @throws RecordParseException as {@link #parse(String)}, or if the bytes are not UTF-8
   */
  default T parseUtf8(byte[] raw) throws RecordParseException {
    return parse(Utf8Text.decode(raw));
  }
}
