package io.lakestream.operators.join;

import io.lakestream.api.annotation.Internal;
import java.util.Objects;

/**
 * A row buffered in a join's state: the row and whether it has matched a row of the other side yet
 * (an outer join emits it with nulls at expiry only if it has not). Serialized by {@link
 * BufferedRowSerializer}.
 *
 * @param <T> the row type
 */
@Internal
public final class BufferedRow<T> {
  final T row;
  boolean matched;

  public BufferedRow(T row, boolean matched) {
    this.row = row;
    this.matched = matched;
  }

  public T row() {
    return row;
  }

  public boolean matched() {
    return matched;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BufferedRow
        && ((BufferedRow<?>) o).matched == matched
        && Objects.equals(((BufferedRow<?>) o).row, row);
  }

  @Override
  public int hashCode() {
    return Objects.hash(row, matched);
  }

  @Override
  public String toString() {
    return row + (matched ? " (matched)" : "");
  }
}
