package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns of the stream written by the Lakebase sink, in the order of the values its {@link
 * io.lakestream.connectors.schema.RowFields} produces: a {@link RowSchema} of the schema model
 * whose names are PostgreSQL column names and whose types the sink writes. A table the sink creates
 * gets exactly these columns (see {@link PostgresTypes} for the type mapping); an existing table
 * must have all of them (it may have more, which keep their defaults).
 *
 * <p>Checked as columns are added, each failing with a {@link LakestreamException}: names are valid
 * PostgreSQL identifiers ({@link PostgresIdentifiers#checkColumn}) and unique exactly (names are
 * case-sensitive: always double-quoted in SQL), both of class {@code
 * JDBC_STREAMING_SINK_INVALID_SCHEMA}; types are ones the sink writes ({@link
 * PostgresTypes#checkSupported}, {@code UNSUPPORTED_DATA_TYPE}). Immutable and serializable.
 */
@PublicEvolving
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
   * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) if a name is invalid
   *     or repeats or there is no column; ({@code UNSUPPORTED_DATA_TYPE}) for a type the sink does
   *     not write
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
    private final Set<String> names = new HashSet<>();

    private Builder() {}

    /** Adds a nullable column. */
    public Builder column(String name, ColumnType type) {
      return column(name, type, true);
    }

    /**
     * Adds a column.
     *
     * @param nullable whether a created table allows NULL in it (key columns never do)
     * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) if the name is not a
     *     valid column name or is already used; ({@code UNSUPPORTED_DATA_TYPE}) if the sink does
     *     not write the type
     */
    public Builder column(String name, ColumnType type, boolean nullable) {
      PostgresIdentifiers.checkColumn(name);
      return column(new Column(name, type, nullable));
    }

    /** Adds a column (see {@link #column(String, ColumnType, boolean)}). */
    public Builder column(Column column) {
      PostgresIdentifiers.checkColumn(column.name());
      PostgresTypes.checkSupported(column);
      if (!names.add(column.name())) {
        throw new LakestreamException(
            LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
            "column '" + column.name() + "' is declared twice");
      }
      columns.column(column);
      return this;
    }

    /**
     * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) if no column was
     *     added
     */
    public LakebaseSchema build() {
      if (columns.isEmpty()) {
        throw new LakestreamException(
            LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
            "a Lakebase sink schema needs at least one column");
      }
      return new LakebaseSchema(columns.build());
    }
  }
}
