package io.lakestream.connectors.delta;

import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import io.lakestream.connectors.schema.TypeSupport;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The declaration of a Delta table: columns (name, type, nullability), partition columns and table
 * properties (for example {@code delta.enableChangeDataFeed=true} or {@code
 * delta.checkpointInterval=10}).
 *
 * <p>The columns are a {@link RowSchema} of the schema model; {@link DeltaTypes} converts them to
 * Delta's types.
 *
 * <p>Guarantees, checked when built: column names are non-blank and unique ignoring case (Delta
 * resolves names case-insensitively), every partition column is a declared column, and at least one
 * column is not a partition column. A violation throws a {@link
 * io.lakestream.api.error.LakestreamException} ({@code DELTA_INVALID_SCHEMA}) naming the offending
 * column. Every column is of a type the Delta writer writes, else a {@link
 * io.lakestream.api.error.LakestreamException} of class {@link
 * io.lakestream.connectors.schema.SchemaErrorClass#UNSUPPORTED_DATA_TYPE} names it ({@link
 * DeltaTypes#checkWritable}). Immutable and serializable.
 */
@PublicEvolving
public final class DeltaTableSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The types a partition column may have: the primitive ones but binary. */
  private static final TypeSupport PARTITIONABLE =
      TypeSupport.CORE.plus(
          ColumnType.Kind.BYTE,
          ColumnType.Kind.SHORT,
          ColumnType.Kind.FLOAT,
          ColumnType.Kind.TIMESTAMP_NTZ);

  private final RowSchema columns;
  private final List<String> partitionColumns;
  private final Map<String, String> properties;

  private DeltaTableSchema(
      List<Column> columns, List<String> partitionColumns, Map<String, String> properties) {
    this.partitionColumns = List.copyOf(partitionColumns);
    this.properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    validate(columns);
    this.columns = RowSchema.of(columns);
  }

  /** Starts a declaration. */
  public static Builder builder() {
    return new Builder();
  }

  private void validate(List<Column> columns) {
    if (columns.isEmpty()) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SCHEMA, "A Delta table needs at least one column");
    }
    Set<String> seen = new HashSet<>();
    for (Column c : columns) {
      if (c.name().isBlank()) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_SCHEMA, "Column names must not be blank");
      }
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_SCHEMA,
            "Column '" + c.name() + "' is declared twice (Delta column names ignore case)");
      }
      DeltaTypes.checkWritable(c);
    }
    for (String p : partitionColumns) {
      Column column =
          columns.stream()
              .filter(c -> c.name().equals(p))
              .findFirst()
              .orElseThrow(
                  () ->
                      new LakestreamException(
                          DeltaErrorClass.DELTA_INVALID_SCHEMA,
                          "Partition column '"
                              + p
                              + "' is not a declared column; columns are "
                              + columns.stream().map(Column::name).toList()));
      if (!PARTITIONABLE.supports(column.type())) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_SCHEMA,
            "Partition column '"
                + p
                + "' is "
                + column.type()
                + ", which Delta and Spark do not partition by (a partition value is a directory"
                + " name); partition by a column of type "
                + PARTITIONABLE
                + ", e.g. one derived from it");
      }
    }
    if (new HashSet<>(partitionColumns).size() == columns.size()) {
      throw new LakestreamException(
          DeltaErrorClass.DELTA_INVALID_SCHEMA,
          "Every column is a partition column; Delta needs at least one data column");
    }
  }

  /** The columns in declaration order (partition columns included). */
  public List<Column> columns() {
    return columns.columns();
  }

  /** The columns as a schema of the model. */
  public RowSchema rowSchema() {
    return columns;
  }

  /** Partition column names, in partitioning order. */
  public List<String> partitionColumns() {
    return partitionColumns;
  }

  /** Table properties set when the table is created. */
  public Map<String, String> properties() {
    return properties;
  }

  /** Column names in declaration order. */
  public List<String> columnNames() {
    return columns.columnNames();
  }

  /** Index of a column, or -1. */
  public int indexOf(String name) {
    return columns.indexOf(name);
  }

  /** The Delta Kernel schema of all columns (partition columns included). */
  public StructType toStructType() {
    return DeltaTypes.toKernel(columns);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeltaTableSchema s
        && s.columns.equals(columns)
        && s.partitionColumns.equals(partitionColumns)
        && s.properties.equals(properties);
  }

  @Override
  public int hashCode() {
    return Objects.hash(columns, partitionColumns, properties);
  }

  @Override
  public String toString() {
    return "DeltaTableSchema{columns="
        + columns
        + ", partitionColumns="
        + partitionColumns
        + ", properties="
        + properties
        + "}";
  }

  /** Builds a {@link DeltaTableSchema}; not thread-safe. */
  public static final class Builder {
    private final List<Column> columns = new ArrayList<>();
    private final List<String> partitionColumns = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();

    private Builder() {}

    /** Adds a nullable column. */
    public Builder column(String name, ColumnType type) {
      return column(name, type, true);
    }

    /** Adds a column. */
    public Builder column(String name, ColumnType type, boolean nullable) {
      columns.add(new Column(name, type, nullable));
      return this;
    }

    /** Adds these columns, in order (see {@link #column(String, ColumnType, boolean)}). */
    public Builder columns(RowSchema columns) {
      columns.columns().forEach(c -> column(c.name(), c.type(), c.nullable()));
      return this;
    }

    /** Sets the partition columns (replacing earlier ones). */
    public Builder partitionedBy(String... names) {
      partitionColumns.clear();
      partitionColumns.addAll(List.of(names));
      return this;
    }

    /** Sets a table property, e.g. {@code delta.enableChangeDataFeed=true}. */
    public Builder property(String key, String value) {
      properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_SCHEMA}) if the
     *     declaration is invalid (see the class comment), ({@code UNSUPPORTED_DATA_TYPE}) if the
     *     writer does not write a column's type
     */
    public DeltaTableSchema build() {
      return new DeltaTableSchema(columns, partitionColumns, properties);
    }
  }
}
