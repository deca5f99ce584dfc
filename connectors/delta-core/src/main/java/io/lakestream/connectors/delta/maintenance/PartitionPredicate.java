package io.lakestream.connectors.delta.maintenance;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaPartitionValues;
import io.lakestream.connectors.delta.filter.DeltaFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The partition predicate of {@code OPTIMIZE ... WHERE}, as a user types it on the command line:
 * comparisons of a column with a literal ({@code =}, {@code <>}, {@code !=}, {@code <}, {@code <=},
 * {@code >}, {@code >=}) and {@code IN (...)}, joined by {@code AND}; literals quoted ({@code
 * 'eu'}, {@code '2026-12-01'}) or bare ({@code 7}, {@code true}), read as the column's type as a
 * partition value is. Anything else is a {@link LakestreamException} ({@code
 * DELTA_INVALID_MAINTENANCE}) showing the form.
 */
final class PartitionPredicate {
  private static final String LITERAL = "'(?:[^']|'')*'|[^\\s,()']+";
  private static final Pattern COMPARISON =
      Pattern.compile(
          "\\s*`?([\\w]+)`?\\s*(=|<>|!=|<=|>=|<|>)\\s*(" + LITERAL + ")\\s*", Pattern.DOTALL);
  private static final Pattern IN =
      Pattern.compile(
          "\\s*`?([\\w]+)`?\\s+IN\\s*\\(((?:\\s*(?:" + LITERAL + ")\\s*,?)+)\\)\\s*",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern LITERALS = Pattern.compile(LITERAL);

  private PartitionPredicate() {}

  /** The filter {@code text} means on a table of {@code schema}. */
  static DeltaFilter parse(String text, StructType schema) {
    List<DeltaFilter> terms = new ArrayList<>();
    for (String term : text.split("(?i)\\s+AND\\s+")) {
      terms.add(term(term, schema, text));
    }
    return terms.size() == 1 ? terms.get(0) : new DeltaFilter.And(terms);
  }

  private static DeltaFilter term(String term, StructType schema, String text) {
    Matcher in = IN.matcher(term);
    if (in.matches()) {
      StructField field = field(in.group(1), schema, text);
      List<Object> values = new ArrayList<>();
      Matcher literal = LITERALS.matcher(in.group(2));
      while (literal.find()) {
        values.add(value(field, literal.group(), text));
      }
      return new DeltaFilter.In(field.getName(), values);
    }
    Matcher c = COMPARISON.matcher(term);
    if (!c.matches()) {
      throw invalid(
          "cannot read '"
              + term.strip()
              + "' in the predicate \""
              + text
              + "\": write comparisons of partition columns with literals joined by AND, e.g."
              + " day >= '2026-12-01' AND region IN ('eu', 'us')");
    }
    StructField field = field(c.group(1), schema, text);
    return new DeltaFilter.Comparison(
        field.getName(), operator(c.group(2)), value(field, c.group(3), text));
  }

  private static StructField field(String name, StructType schema, String text) {
    for (StructField f : schema.fields()) {
      if (f.getName().equalsIgnoreCase(name)) {
        return f;
      }
    }
    throw invalid(
        "the predicate \""
            + text
            + "\" names '"
            + name
            + "', not a column: "
            + schema.fieldNames());
  }

  private static Object value(StructField field, String literal, String text) {
    String unquoted =
        literal.startsWith("'")
            ? literal.substring(1, literal.length() - 1).replace("''", "'")
            : literal;
    try {
      return DeltaPartitionValues.parse(field, unquoted, "the predicate");
    } catch (RuntimeException e) {
      throw invalid(
          "'"
              + unquoted
              + "' in the predicate \""
              + text
              + "\" is not a value of column '"
              + field.getName()
              + "' ("
              + field.getDataType()
              + ")");
    }
  }

  private static DeltaFilter.Operator operator(String symbol) {
    return switch (symbol.toUpperCase(Locale.ROOT)) {
      case "=" -> DeltaFilter.Operator.EQUAL;
      case "<>", "!=" -> DeltaFilter.Operator.NOT_EQUAL;
      case "<" -> DeltaFilter.Operator.LESS_THAN;
      case "<=" -> DeltaFilter.Operator.LESS_THAN_OR_EQUAL;
      case ">" -> DeltaFilter.Operator.GREATER_THAN;
      default -> DeltaFilter.Operator.GREATER_THAN_OR_EQUAL;
    };
  }

  private static LakestreamException invalid(String message) {
    return new LakestreamException(
        DeltaErrorClass.DELTA_INVALID_MAINTENANCE, "OPTIMIZE WHERE: " + message);
  }
}
