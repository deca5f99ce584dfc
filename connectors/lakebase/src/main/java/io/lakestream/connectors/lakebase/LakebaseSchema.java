package io.lakestream.connectors.lakebase;

import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.io.Serializable;
import java.util.List;

/**
 * The columns of the stream written by the Lakebase sink, in the order of the values its {@link
 * io.lakestream.connectors.schema.RowFields} produces: a {@link RowSchema} of the schema model
 * whose names are PostgreSQL column names and whose types the sink writes. A table the sink creates
 * gets exactly these columns (see {@link PostgresTypes} for the type mapping); an existing table
 * must have all of them (it may have more, which keep their defaults).
 *
 * <p>Checked as columns are added: names are valid PostgreSQL identifiers ({@link
 * PostgresIdentifiers#checkColumn}, {@link IllegalArgumentException}) and unique exactly (names are
 * case-sensitive: always double-quoted in SQL), types are ones the sink writes ({@link
 * PostgresTypes#checkSupported}); both of the latter fail with a {@link
 * io.lakestream.api.error.LakestreamException}. Immutable and serializable.
 */
public final class LakebaseSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  private final RowSchema columns;

  private LakebaseSchema(RowSchema columns) {
    this.columns = columns;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The sink schema of {@code schema}'s columns (checked as {@link Builder#column(Column)} does).
   *
   * @throws IllegalArgumentException if a name is invalid or there is no column
   */
  public static LakebaseSchema of(RowSchema schema) {
    Builder builder = builder();
    schema.columns().forEach(builder::column);
    return builder.build();
  }

  public List<Column> columns() {
    return columns.columns();
  }

  /** The columns as a schema of the model. */
  public RowSchema rowSchema() {
    return columns;
  }

  public List<String> columnNames() {
    return columns.columnNames();
  }

  /** The position of the column named exactly {@code name}, or -1. */
  public int indexOf(String name) {
    return columns.indexOf(name);
  }

  @Override
  public String toString() {
    return columns.toString();
  }

  /** Collects columns in order. */
  public static final class Builder {
    private final RowSchema.Builder columns = RowSchema.builder();

    private Builder() {}

    /** Adds a nullable column. */
    public Builder column(String name, ColumnType type) {
      return column(name, type, true);
    }

    /**
     * Adds a column.
     *
     * @param nullable whether a created table allows NULL in it (key columns never do)
     * @throws IllegalArgumentException if the name is invalid
     * @throws io.lakestream.api.error.LakestreamException if the name is already used or the sink
     *     does not write the type
     */
    public Builder column(String name, ColumnType type, boolean nullable) {
      PostgresIdentifiers.checkColumn(name);
      return column(new Column(name, type, nullable));
    }

    /** Adds a column (see {@link #column(String, ColumnType, boolean)}). */
    public Builder column(Column column) {
      PostgresIdentifiers.checkColumn(column.name());
      PostgresTypes.checkSupported(column);
      columns.column(column);
      return this;
    }

    /**
     * @throws IllegalArgumentException if no column was added
     */
    public LakebaseSchema build() {
      if (columns.isEmpty()) {
        throw new IllegalArgumentException("a Lakebase sink schema needs at least one column");
      }
      return new LakebaseSchema(columns.build());
    }
  }
}
