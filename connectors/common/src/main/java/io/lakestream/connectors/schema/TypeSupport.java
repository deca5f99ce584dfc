package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The kinds of column type one connector takes, and the refusal of the others: each connector's
 * converter declares its own ({@link #CORE}, or {@link #CORE} {@link #plus} more) and checks
 * declared columns with {@link #check}. Immutable and serializable.
 */
@PublicEvolving
public final class TypeSupport implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * String, long, int, double, boolean, decimal(p,s), timestamp and date: the types every connector
   * takes.
   */
  public static final TypeSupport CORE =
      new TypeSupport(
          EnumSet.of(
              ColumnType.Kind.STRING,
              ColumnType.Kind.LONG,
              ColumnType.Kind.INT,
              ColumnType.Kind.DOUBLE,
              ColumnType.Kind.BOOLEAN,
              ColumnType.Kind.DECIMAL,
              ColumnType.Kind.TIMESTAMP,
              ColumnType.Kind.DATE));

  private final Set<ColumnType.Kind> kinds;

  private TypeSupport(Set<ColumnType.Kind> kinds) {
    this.kinds = Collections.unmodifiableSet(EnumSet.copyOf(kinds));
  }

  /** These kinds and {@code more}. */
  public TypeSupport plus(ColumnType.Kind... more) {
    EnumSet<ColumnType.Kind> all = EnumSet.copyOf(kinds);
    Collections.addAll(all, more);
    return new TypeSupport(all);
  }

  /** Whether values of {@code type} are taken. */
  public boolean supports(ColumnType type) {
    return kinds.contains(type.kind());
  }

  /**
   * Checks that {@code column}'s type is taken.
   *
   * @param connector what refuses it, for the message (e.g. {@code the Delta writer})
   * @throws LakestreamException ({@link SchemaErrorClass#UNSUPPORTED_DATA_TYPE}) naming the column,
   *     its type and the supported types
   */
  public void check(Column column, String connector) {
    if (!supports(column.type())) {
      throw new LakestreamException(
          SchemaErrorClass.UNSUPPORTED_DATA_TYPE,
          "Column '"
              + column.name()
              + "' is "
              + column.type()
              + ", which "
              + connector
              + " does not write; declare it as one of "
              + this);
    }
  }

  /** The supported types for messages, e.g. {@code string, long, decimal(p,s) or date}. */
  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    for (ColumnType.Kind kind : kinds) {
      names.add(
          kind == ColumnType.Kind.DECIMAL ? "decimal(p,s)" : kind.name().toLowerCase(Locale.ROOT));
    }
    String last = names.remove(names.size() - 1);
    return names.isEmpty() ? last : String.join(", ", names) + " or " + last;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TypeSupport t && t.kinds.equals(kinds);
  }

  @Override
  public int hashCode() {
    return kinds.hashCode();
  }
}
