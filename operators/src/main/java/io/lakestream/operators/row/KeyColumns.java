package io.lakestream.operators.row;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * The key columns of a row, by name: what {@code groupBy(...)} and {@code dropDuplicates(...)} take
 * in Structured Streaming. Extracts a {@link Values} tuple (one value per column, in declaration
 * order) and is the {@link KeySelector} the keyed operators partition by.
 *
 * <pre>{@code
 * KeyColumns<Click> keys = KeyColumns.of("ad_id", (Click c) -> c.adId).and("country", c -> c.country);
 * }</pre>
 *
 * <p>A column value of an unsupported type fails the task with an error naming the column (see
 * {@link Values#of}).
 *
 * @param <T> the row type
 */
@PublicEvolving
public final class KeyColumns<T> implements KeySelector<T, Values> {
  private static final long serialVersionUID = 1L;

  /** Reads one column of a row. Must be deterministic. */
  @FunctionalInterface
  public interface Column<T> extends Serializable {
    Object value(T row);
  }

  private final List<String> names;
  private final List<Column<T>> columns;

  /** "key column 'name'" per column, for errors: built once, not per row. */
  private final String[] labels;

  private KeyColumns(List<String> names, List<Column<T>> columns) {
    this.names = names;
    this.columns = columns;
    this.labels = names.stream().map(n -> "key column '" + n + "'").toArray(String[]::new);
  }

  /** One key column. */
  public static <T> KeyColumns<T> of(String name, Column<T> column) {
    return new KeyColumns<T>(new ArrayList<>(), new ArrayList<>()).and(name, column);
  }

  /** This key plus one more column (a new instance; this one is unchanged). */
  public KeyColumns<T> and(String name, Column<T> column) {
    Objects.requireNonNull(name, "column name");
    Objects.requireNonNull(column, "column");
    if (names.contains(name)) {
      throw new LakestreamException(
          OperatorErrorClass.INVALID_KEY_COLUMNS, "key column '" + name + "' is listed twice");
    }
    List<String> n = new ArrayList<>(names);
    List<Column<T>> c = new ArrayList<>(columns);
    n.add(name);
    c.add(column);
    return new KeyColumns<>(n, c);
  }

  /** The column names, in order. */
  public List<String> names() {
    return List.copyOf(names);
  }

  @Override
  public Values getKey(T row) {
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = Values.normalize(labels[i], columns.get(i).value(row));
    }
    return Values.ofNormalized(values);
  }

  @Override
  public String toString() {
    return String.join(", ", names);
  }
}
