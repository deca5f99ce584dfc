package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Objects;

/**
 * One column of a {@link RowSchema} (or one field of a {@link ColumnType.Struct}).
 *
 * <p>Connectors check names further where their system has rules (PostgreSQL identifiers, Delta's
 * case-insensitive names); this record only requires a name and a type.
 *
 * @param name the column name, case kept
 * @param type its type
 * @param nullable whether rows may hold null in it
 */
@PublicEvolving
public record Column(String name, ColumnType type, boolean nullable) implements Serializable {
  public Column {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** A nullable column. */
  public Column(String name, ColumnType type) {
    this(name, type, true);
  }
}
