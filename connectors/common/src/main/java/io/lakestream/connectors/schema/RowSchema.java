package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns of a row, in order: what a sink writes or a source reads, and the fields of a {@link
 * ColumnType.Struct}.
 *
 * <p>Guarantees: column names are unique (exactly; connectors whose names ignore case check more).
 * A second column of one name fails with a {@link LakestreamException} of class {@link
 * SchemaErrorClass#DUPLICATE_COLUMN}. A schema may have no columns (an Auto Loader schema of
 * partition columns only). Immutable and serializable.
 */
@PublicEvolving
public final class RowSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<Column> columns;

  private RowSchema(List<Column> columns) {
    this.columns = List.copyOf(columns);
    Set<String> names = new HashSet<>();
    this.columns.forEach(c -> requireNew(names, c.name()));
  }

  /**
   * The schema of these columns, in order.
   *
   * @throws LakestreamException ({@link SchemaErrorClass#DUPLICATE_COLUMN}) if a name repeats
   */
  public static RowSchema of(List<Column> columns) {
    return new RowSchema(columns);
  }

  /** The schema of these columns, in order (see {@link #of(List)}). */
  public static RowSchema of(Column... columns) {
    return new RowSchema(List.of(columns));
  }

  /** Starts a schema. */
  public static Builder builder() {
    return new Builder();
  }

  /** The columns in order. */
  public List<Column> columns() {
    return columns;
  }

  /** Column names in order. */
  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }

  /** The number of columns. */
  public int size() {
    return columns.size();
  }

  /** The column at {@code index}. */
  public Column column(int index) {
    return columns.get(index);
  }

  /** The position of the column named exactly {@code name}, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static void requireNew(Set<String> names, String name) {
    if (!names.add(name)) {
      throw new LakestreamException(
          SchemaErrorClass.DUPLICATE_COLUMN,
          "column '" + name + "' is declared twice; give each column its own name");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowSchema s && s.columns.equals(columns);
  }

  @Override
  public int hashCode() {
    return columns.hashCode();
  }

  /** The columns as a list, e.g. {@code [Column[name=id, type=long, nullable=false]]}. */
  @Override
  public String toString() {
    return columns.toString();
  }

  /** Collects columns in order; a repeated name fails at once. Not thread-safe. */
  public static final class Builder {
    private final List<Column> columns = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    private Builder() {}

    /** Adds a nullable column. */
    public Builder column(String name, ColumnType type) {
      return column(new Column(name, type));
    }

    /** Adds a column. */
    public Builder column(String name, ColumnType type, boolean nullable) {
      return column(new Column(name, type, nullable));
    }

    /**
     * Adds a column.
     *
     * @throws LakestreamException ({@link SchemaErrorClass#DUPLICATE_COLUMN}) if its name is taken
     */
    public Builder column(Column column) {
      requireNew(names, column.name());
      columns.add(column);
      return this;
    }

    /** Whether no column was added yet. */
    public boolean isEmpty() {
      return columns.isEmpty();
    }

    /** The schema of the columns added so far. */
    public RowSchema build() {
      return new RowSchema(columns);
    }
  }
}
