package io.lakestream.connectors.files;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.Serializable;

/**
 * Encodes one row as one line of text, without the line terminator. Must be deterministic.
 *
 * @param <T> the row type
 */
@PublicEvolving
@FunctionalInterface
public interface RowEncoder<T> extends Serializable {
  String encode(T row) throws IOException;
}
