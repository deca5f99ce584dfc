package io.lakestream.connectors.delta.filter;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A filter on a Delta table's rows that a Delta source uses to skip data files: comparisons ({@code
 * =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}) of a top-level column with a value,
 * {@code IN}, {@code IS NULL}, {@code IS NOT NULL}, and {@code AND} / {@code OR} of filters, with
 * SQL's semantics (a null never compares true). The source skips a data file when its partition
 * values or its statistics show that no row of it matches; a file without statistics is read.
 * Skipping is per file: rows of a file that is read are all emitted, so filter them again
 * downstream (Flink SQL does).
 *
 * <p>Values are the Java values the Delta source emits for the column's type: {@link String},
 * {@link Long} ({@code long}), {@link Integer}, {@link Short}, {@link Byte}, {@link Double}, {@link
 * Float}, {@link Boolean}, {@link BigDecimal} ({@code decimal}, any scale), {@link LocalDate}
 * ({@code date}), {@link Instant} ({@code timestamp}), {@link LocalDateTime} ({@code
 * timestamp_ntz}). A null value, or one of another Java type, fails at once with a {@link
 * LakestreamException} ({@code DELTA_INVALID_SOURCE_SETTING}) naming the column; an unknown column
 * or a value that does not fit the column's type fails likewise when the source is built.
 *
 * <pre>{@code
 * DeltaFilter recent = DeltaFilter.and(
 *     DeltaFilter.equalTo("region", "eu"),
 *     DeltaFilter.greaterThanOrEqual("order_date", LocalDate.of(2024, 5, 1)));
 * }</pre>
 */
@PublicEvolving
public sealed interface DeltaFilter extends Serializable
    permits DeltaFilter.Comparison,
        DeltaFilter.In,
        DeltaFilter.NullTest,
        DeltaFilter.And,
        DeltaFilter.Or {

  /** The Java types a value may have. */
  Set<Class<?>> VALUE_TYPES =
      Set.of(
          String.class,
          Long.class,
          Integer.class,
          Short.class,
          Byte.class,
          Double.class,
          Float.class,
          Boolean.class,
          BigDecimal.class,
          LocalDate.class,
          Instant.class,
          LocalDateTime.class);

  /** A comparison operator. */
  enum Operator {
    EQUAL("="),
    NOT_EQUAL("<>"),
    LESS_THAN("<"),
    LESS_THAN_OR_EQUAL("<="),
    GREATER_THAN(">"),
    GREATER_THAN_OR_EQUAL(">=");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    /** The operator in SQL, e.g. {@code <=}. */
    public String symbol() {
      return symbol;
    }

    /** The operator with its operands swapped: {@code 5 < x} is {@code x > 5}. */
    public Operator swapped() {
      return switch (this) {
        case LESS_THAN -> GREATER_THAN;
        case LESS_THAN_OR_EQUAL -> GREATER_THAN_OR_EQUAL;
        case GREATER_THAN -> LESS_THAN;
        case GREATER_THAN_OR_EQUAL -> LESS_THAN_OR_EQUAL;
        default -> this;
      };
    }

    /** Whether {@code a op b} holds, given {@code compare(a, b)}. */
    public boolean holds(int comparison) {
      return switch (this) {
        case EQUAL -> comparison == 0;
        case NOT_EQUAL -> comparison != 0;
        case LESS_THAN -> comparison < 0;
        case LESS_THAN_OR_EQUAL -> comparison <= 0;
        case GREATER_THAN -> comparison > 0;
        case GREATER_THAN_OR_EQUAL -> comparison >= 0;
      };
    }
  }

  /** {@code column operator value}. */
  record Comparison(String column, Operator operator, Object value) implements DeltaFilter {
    public Comparison {
      checkColumn(column);
      Objects.requireNonNull(operator, "operator");
      checkValue(column, value);
    }

    @Override
    public String toString() {
      return quote(column) + " " + operator.symbol() + " " + literal(value);
    }
  }

  /** {@code column IN (values)}. */
  record In(String column, List<Object> values) implements DeltaFilter {
    public In {
      checkColumn(column);
      if (values == null || values.isEmpty()) {
        throw invalid("The IN filter on column '" + column + "' needs at least one value");
      }
      values.forEach(v -> checkValue(column, v));
      values = List.copyOf(values);
    }

    @Override
    public String toString() {
      return quote(column)
          + " IN ("
          + values.stream().map(DeltaFilter::literal).collect(Collectors.joining(", "))
          + ")";
    }
  }

  /** {@code column IS NULL}, or {@code column IS NOT NULL} when {@code isNull} is false. */
  record NullTest(String column, boolean isNull) implements DeltaFilter {
    public NullTest {
      checkColumn(column);
    }

    @Override
    public String toString() {
      return quote(column) + (isNull ? " IS NULL" : " IS NOT NULL");
    }
  }

  /** Every one of {@code filters}. */
  record And(List<DeltaFilter> filters) implements DeltaFilter {
    public And {
      filters = checkFilters("AND", filters);
    }

    @Override
    public String toString() {
      return join(filters, " AND ");
    }
  }

  /** Any one of {@code filters}. */
  record Or(List<DeltaFilter> filters) implements DeltaFilter {
    public Or {
      filters = checkFilters("OR", filters);
    }

    @Override
    public String toString() {
      return join(filters, " OR ");
    }
  }

  /** {@code column = value}. */
  static DeltaFilter equalTo(String column, Object value) {
    return new Comparison(column, Operator.EQUAL, value);
  }

  /** {@code column <> value}. */
  static DeltaFilter notEqualTo(String column, Object value) {
    return new Comparison(column, Operator.NOT_EQUAL, value);
  }

  /** {@code column < value}. */
  static DeltaFilter lessThan(String column, Object value) {
    return new Comparison(column, Operator.LESS_THAN, value);
  }

  /** {@code column <= value}. */
  static DeltaFilter lessThanOrEqual(String column, Object value) {
    return new Comparison(column, Operator.LESS_THAN_OR_EQUAL, value);
  }

  /** {@code column > value}. */
  static DeltaFilter greaterThan(String column, Object value) {
    return new Comparison(column, Operator.GREATER_THAN, value);
  }

  /** {@code column >= value}. */
  static DeltaFilter greaterThanOrEqual(String column, Object value) {
    return new Comparison(column, Operator.GREATER_THAN_OR_EQUAL, value);
  }

  /** {@code column BETWEEN low AND high}: {@code column >= low AND column <= high}. */
  static DeltaFilter between(String column, Object low, Object high) {
    return and(greaterThanOrEqual(column, low), lessThanOrEqual(column, high));
  }

  /** {@code column IN (values)}. */
  static DeltaFilter in(String column, Object... values) {
    return new In(column, values == null ? null : Arrays.asList(values));
  }

  /** {@code column IS NULL}. */
  static DeltaFilter isNull(String column) {
    return new NullTest(column, true);
  }

  /** {@code column IS NOT NULL}. */
  static DeltaFilter isNotNull(String column) {
    return new NullTest(column, false);
  }

  /** Every one of {@code filters}. */
  static DeltaFilter and(DeltaFilter... filters) {
    return new And(filters == null ? null : Arrays.asList(filters));
  }

  /** Any one of {@code filters}. */
  static DeltaFilter or(DeltaFilter... filters) {
    return new Or(filters == null ? null : Arrays.asList(filters));
  }

  private static void checkColumn(String column) {
    if (column == null || column.isBlank()) {
      throw invalid("A Delta source filter needs a column name, was '" + column + "'");
    }
  }

  private static void checkValue(String column, Object value) {
    if (value == null) {
      throw invalid(
          "The filter on column '"
              + column
              + "' compares with null, which no row matches; use isNull / isNotNull");
    }
    if (!VALUE_TYPES.contains(value.getClass())) {
      throw invalid(
          "The filter on column '"
              + column
              + "' has a value of type "
              + value.getClass().getName()
              + " ("
              + value
              + "); values are the Java types the Delta source emits: "
              + VALUE_TYPES.stream().map(Class::getSimpleName).sorted().toList());
    }
  }

  private static List<DeltaFilter> checkFilters(String kind, List<DeltaFilter> filters) {
    if (filters == null || filters.isEmpty() || filters.stream().anyMatch(Objects::isNull)) {
      throw invalid(kind + " needs one or more filters, none null");
    }
    return List.copyOf(filters);
  }

  private static LakestreamException invalid(String message) {
    return new LakestreamException(DeltaErrorClass.DELTA_INVALID_SOURCE_SETTING, message);
  }

  private static String join(List<DeltaFilter> filters, String operator) {
    List<String> parts = new ArrayList<>();
    for (DeltaFilter f : filters) {
      boolean nested = f instanceof And || f instanceof Or;
      parts.add(nested && filters.size() > 1 ? "(" + f + ")" : f.toString());
    }
    return String.join(operator, parts);
  }

  private static String quote(String column) {
    return column.matches("[A-Za-z_][A-Za-z0-9_]*") ? column : "`" + column + "`";
  }

  private static String literal(Object value) {
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    } else if (value instanceof LocalDate) {
      return "DATE '" + value + "'";
    } else if (value instanceof Instant || value instanceof LocalDateTime) {
      return "TIMESTAMP '" + value + "'";
    }
    return value.toString();
  }
}
