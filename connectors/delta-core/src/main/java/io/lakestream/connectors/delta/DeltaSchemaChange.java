package io.lakestream.connectors.delta;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a writer's declared schema differs from an existing Delta table's, and whether {@code
 * mergeSchema=true} may apply the difference. Pure: compares names, types, nullability, column
 * order and partition columns, and touches no files.
 *
 * <p>The only change {@code mergeSchema} applies is additive: the declaration starts with exactly
 * the table's columns (same names, types and nullability, in the table's order) and then adds new
 * <em>nullable</em> columns at the end (old rows read NULL in them, as with Spark's {@code
 * mergeSchema}). Every other difference breaks one of the {@link Rule}s and is never applied.
 *
 * @param newColumns the declared columns the table lacks (empty when nothing is to be added)
 * @param violation the broken rule and its explanation, if the difference is not additive
 */
@Internal
public record DeltaSchemaChange(List<StructField> newColumns, Optional<String> violation) {

  /** The rules an additive schema change must follow; each names itself in error messages. */
  public enum Rule {
    NO_DROPPED_COLUMNS("a column of the table must stay declared (no drops or renames)"),
    NO_TYPE_CHANGES("a column keeps its type (no type changes)"),
    SAME_NULLABILITY("a column keeps its nullability (NOT NULL cannot be added or removed)"),
    SAME_ORDER("existing columns stay first and in the table's order; new columns go last"),
    NEW_COLUMNS_NULLABLE("a new column must be nullable: the rows already in the table read NULL"),
    SAME_PARTITIONING("the partition columns cannot change");

    private final String text;

    Rule(String text) {
      this.text = text;
    }

    /** The rule in words. */
    public String text() {
      return text;
    }
  }

  public DeltaSchemaChange {
    newColumns = List.copyOf(newColumns);
  }

  /** True if the table already has exactly the declared columns and partitioning. */
  public boolean isNone() {
    return newColumns.isEmpty() && violation.isEmpty();
  }

  /** True if the difference is only new nullable columns at the end. */
  public boolean isAdditive() {
    return !newColumns.isEmpty() && violation.isEmpty();
  }

  /**
   * Compares a table's schema and partitioning with a declaration.
   *
   * @param table the table's current schema
   * @param tablePartitions the table's partition columns
   * @param declared the writer's declared schema
   * @param declaredPartitions the writer's declared partition columns
   */
  public static DeltaSchemaChange between(
      StructType table,
      List<String> tablePartitions,
      StructType declared,
      List<String> declaredPartitions) {
    if (!lower(tablePartitions).equals(lower(declaredPartitions))) {
      return broken(
          Rule.SAME_PARTITIONING,
          "the table is partitioned by "
              + tablePartitions
              + ", the writer declares "
              + declaredPartitions);
    }
    List<StructField> tableFields = table.fields();
    List<StructField> declaredFields = declared.fields();
    for (StructField existing : tableFields) {
      int at = indexOf(declaredFields, existing.getName());
      if (at < 0) {
        return broken(
            Rule.NO_DROPPED_COLUMNS,
            "the table's column '" + existing.getName() + "' is not declared by the writer");
      }
      StructField mine = declaredFields.get(at);
      if (!mine.getDataType().equivalent(existing.getDataType())) {
        return broken(
            Rule.NO_TYPE_CHANGES,
            "column '"
                + existing.getName()
                + "' is "
                + existing.getDataType()
                + " in the table but "
                + mine.getDataType()
                + " in the declaration");
      }
      if (mine.isNullable() != existing.isNullable()) {
        return broken(
            Rule.SAME_NULLABILITY,
            "column '"
                + existing.getName()
                + "' is "
                + nullability(existing)
                + " in the table but "
                + nullability(mine)
                + " in the declaration");
      }
      if (!mine.getName().equals(existing.getName())) {
        return broken(
            Rule.NO_DROPPED_COLUMNS,
            "column '"
                + existing.getName()
                + "' is declared as '"
                + mine.getName()
                + "' (names are compared ignoring case, but a rename is not additive)");
      }
    }
    for (int i = 0; i < tableFields.size(); i++) {
      if (!declaredFields.get(i).getName().equals(tableFields.get(i).getName())) {
        return broken(
            Rule.SAME_ORDER,
            "the table's columns are "
                + names(tableFields)
                + ", the declaration's are "
                + names(declaredFields));
      }
    }
    List<StructField> added =
        new ArrayList<>(declaredFields.subList(tableFields.size(), declaredFields.size()));
    for (StructField f : added) {
      if (!f.isNullable()) {
        return broken(
            Rule.NEW_COLUMNS_NULLABLE, "the new column '" + f.getName() + "' is declared NOT NULL");
      }
    }
    return new DeltaSchemaChange(added, Optional.empty());
  }

  private static DeltaSchemaChange broken(Rule rule, String why) {
    return new DeltaSchemaChange(
        List.of(), Optional.of(rule.name() + " (" + rule.text() + "): " + why));
  }

  private static int indexOf(List<StructField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static String nullability(StructField f) {
    return f.isNullable() ? "nullable" : "NOT NULL";
  }

  private static List<String> names(List<StructField> fields) {
    return fields.stream().map(StructField::getName).toList();
  }

  private static List<String> lower(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }
}
