package io.lakestream.connectors.lakebase;

import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The columns of the stream written by the Lakebase sink, in the order of the values {@link
 * LakebaseRowFields} produces. A table the sink creates gets exactly these columns (see {@link
 * PostgresColumnType} for the type mapping); an existing table must have all of them (it may have
 * more, which keep their defaults).
 */
public final class LakebaseSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * One column.
   *
   * @param name the column name, case kept (always double-quoted in SQL)
   * @param type its type
   * @param nullable whether a created table allows NULL in it (key columns never do)
   */
  public record Column(String name, PostgresColumnType type, boolean nullable)
      implements Serializable {
    public Column {
      PostgresIdentifiers.checkColumn(name);
      Objects.requireNonNull(type, "type");
    }
  }

  private final List<Column> columns;

  private LakebaseSchema(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Column> columns() {
    return columns;
  }

  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
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

  @Override
  public String toString() {
    return columns.toString();
  }

  /** Collects columns in order. */
  public static final class Builder {
    private final List<Column> columns = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    private Builder() {}

    /** Adds a nullable column. */
    public Builder column(String name, PostgresColumnType type) {
      return column(name, type, true);
    }

    /**
     * Adds a column.
     *
     * @throws LakestreamException ({@code JDBC_STREAMING_SINK_INVALID_SCHEMA}) if the name is
     *     already used; {@link IllegalArgumentException} if it is not a valid column name
     */
    public Builder column(String name, PostgresColumnType type, boolean nullable) {
      Column column = new Column(name, type, nullable);
      if (!names.add(name)) {
        throw new LakestreamException(
            LakebaseErrorClass.JDBC_STREAMING_SINK_INVALID_SCHEMA,
            "column '" + name + "' is declared twice");
      }
      columns.add(column);
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
      return new LakebaseSchema(columns);
    }
  }
}
