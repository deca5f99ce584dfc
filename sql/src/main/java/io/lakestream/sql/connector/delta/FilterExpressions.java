package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.delta.filter.DeltaFilter;
import io.lakestream.connectors.delta.filter.DeltaFilter.Operator;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Translates the filters Flink pushes into a Delta table source into {@link DeltaFilter}s: {@code
 * =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=} between a column and a literal (in
 * either order), {@code IS [NOT] NULL}, {@code IN} of literals, and {@code AND} / {@code OR} of
 * those. A literal must be of the column's type (an integer of any width for an integer column);
 * anything else (casts, functions, other columns, a type that would need a conversion) is not
 * translated and stays with Flink alone.
 */
final class FilterExpressions {
  private static final Map<FunctionDefinition, Operator> COMPARISONS =
      Map.of(
          BuiltInFunctionDefinitions.EQUALS, Operator.EQUAL,
          BuiltInFunctionDefinitions.NOT_EQUALS, Operator.NOT_EQUAL,
          BuiltInFunctionDefinitions.LESS_THAN, Operator.LESS_THAN,
          BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, Operator.LESS_THAN_OR_EQUAL,
          BuiltInFunctionDefinitions.GREATER_THAN, Operator.GREATER_THAN,
          BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, Operator.GREATER_THAN_OR_EQUAL);

  private FilterExpressions() {}

  /** The Delta filter of {@code expression}, if it has one. */
  static Optional<DeltaFilter> toDeltaFilter(ResolvedExpression expression) {
    if (!(expression instanceof CallExpression call)) {
      return Optional.empty();
    }
    FunctionDefinition function = call.getFunctionDefinition();
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (COMPARISONS.containsKey(function) && args.size() == 2) {
      return comparison(COMPARISONS.get(function), args.get(0), args.get(1));
    } else if (function == BuiltInFunctionDefinitions.IS_NULL && args.size() == 1) {
      return column(args.get(0)).map(DeltaFilter::isNull);
    } else if (function == BuiltInFunctionDefinitions.IS_NOT_NULL && args.size() == 1) {
      return column(args.get(0)).map(DeltaFilter::isNotNull);
    } else if (function == BuiltInFunctionDefinitions.IN && args.size() >= 2) {
      return in(args);
    } else if (function == BuiltInFunctionDefinitions.AND) {
      return all(args).map(filters -> new DeltaFilter.And(filters));
    } else if (function == BuiltInFunctionDefinitions.OR) {
      return all(args).map(filters -> new DeltaFilter.Or(filters));
    }
    return Optional.empty();
  }

  private static Optional<DeltaFilter> comparison(
      Operator operator, ResolvedExpression left, ResolvedExpression right) {
    if (left instanceof FieldReferenceExpression field) {
      return value(field, right).map(v -> new DeltaFilter.Comparison(field.getName(), operator, v));
    }
    if (right instanceof FieldReferenceExpression field) {
      return value(field, left)
          .map(v -> new DeltaFilter.Comparison(field.getName(), operator.swapped(), v));
    }
    return Optional.empty();
  }

  private static Optional<DeltaFilter> in(List<ResolvedExpression> args) {
    if (!(args.get(0) instanceof FieldReferenceExpression field)) {
      return Optional.empty();
    }
    List<Object> values = new ArrayList<>();
    for (ResolvedExpression arg : args.subList(1, args.size())) {
      Optional<Object> value = value(field, arg);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      values.add(value.get());
    }
    return Optional.of(new DeltaFilter.In(field.getName(), values));
  }

  private static Optional<List<DeltaFilter>> all(List<ResolvedExpression> args) {
    List<DeltaFilter> filters = new ArrayList<>();
    for (ResolvedExpression arg : args) {
      Optional<DeltaFilter> filter = toDeltaFilter(arg);
      if (filter.isEmpty()) {
        return Optional.empty();
      }
      filters.add(filter.get());
    }
    return filters.isEmpty() ? Optional.empty() : Optional.of(filters);
  }

  private static Optional<String> column(ResolvedExpression expression) {
    return expression instanceof FieldReferenceExpression field
        ? Optional.of(field.getName())
        : Optional.empty();
  }

  /**
   * The value of {@code literal} as the Java value the Delta source emits for {@code field}'s type,
   * if the literal is a non-null value of that type.
   */
  private static Optional<Object> value(
      FieldReferenceExpression field, ResolvedExpression literal) {
    if (!(literal instanceof ValueLiteralExpression value) || value.isNull()) {
      return Optional.empty();
    }
    LogicalType column = field.getOutputDataType().getLogicalType();
    LogicalType given = value.getOutputDataType().getLogicalType();
    if (column.is(LogicalTypeFamily.INTEGER_NUMERIC)
        && given.is(LogicalTypeFamily.INTEGER_NUMERIC)) {
      return value.getValueAs(Number.class).flatMap(n -> integer(column.getTypeRoot(), n));
    }
    Class<?> java = javaType(column);
    if (java == null || !sameKind(column, given)) {
      return Optional.empty();
    }
    return value.getValueAs(java).map(v -> (Object) v);
  }

  private static boolean sameKind(LogicalType column, LogicalType given) {
    return column.getTypeRoot() == given.getTypeRoot()
        || (column.is(LogicalTypeFamily.CHARACTER_STRING)
            && given.is(LogicalTypeFamily.CHARACTER_STRING));
  }

  /** {@code number} as the integer type {@code root}'s Java type, if it fits. */
  private static Optional<Object> integer(LogicalTypeRoot root, Number number) {
    long n = number.longValue();
    return switch (root) {
      case BIGINT -> Optional.of(n);
      case INTEGER -> n == (int) n ? Optional.of((int) n) : Optional.empty();
      case SMALLINT -> n == (short) n ? Optional.of((short) n) : Optional.empty();
      case TINYINT -> n == (byte) n ? Optional.of((byte) n) : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** The Java type of a filter value on a column of {@code type}, or null for none. */
  private static Class<?> javaType(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> String.class;
      case BOOLEAN -> Boolean.class;
      case DECIMAL -> BigDecimal.class;
      case DOUBLE -> Double.class;
      case FLOAT -> Float.class;
      case DATE -> LocalDate.class;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> LocalDateTime.class;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> Instant.class;
      default -> null;
    };
  }
}
