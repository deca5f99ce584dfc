package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The declaration of a MERGE into a Delta table, as Delta's {@code MERGE INTO target USING source
 * ON target.k = source.k WHEN MATCHED ... WHEN NOT MATCHED ...}: the target table, the key columns
 * of the equality condition, the clauses, and the rule for several source rows with one key.
 *
 * <p>Semantics (those of Delta Lake's MERGE): a source row matches the target rows whose key
 * columns all equal its own (a null key never matches). For each matched target row the {@code
 * whenMatched} clauses are tried in declaration order and the first whose condition holds applies
 * (update or delete); if none holds, the row stays as it is. A source row that matches no target
 * row is inserted if a {@code whenNotMatchedInsert} clause's condition holds. Source rows are
 * {@code Object[]} with the table's columns first (in table order, as {@link
 * io.lakestream.connectors.delta.DeltaTableWriter} takes them) and optionally source-only columns
 * after them, which conditions may read; "update all" and "insert all" take the table's columns.
 *
 * <p>Several source rows with one key in one batch are an error ({@link
 * DuplicateMergeKeyException}) unless {@link Builder#lastByOrderingColumn(String)} names a column:
 * then the row with the greatest value in it wins, ties broken by the rows' values, so a replayed
 * batch gives the same result whatever the row order. Immutable and serializable; {@link
 * DeltaMergeCommit} executes it, reading the target files in several threads at once: conditions
 * and assignments must be safe to call concurrently (pure functions of their rows are).
 */
@PublicEvolving
public final class DeltaMerge implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What a matched clause does. */
  public enum MatchedAction {
    UPDATE,
    DELETE
  }

  /**
   * One {@code whenMatched} clause.
   *
   * @param action update or delete
   * @param condition when it applies
   * @param assignment the new row for an update; null means "update all" (the source row)
   * @param conditional whether the user gave a condition
   */
  record MatchedClause(
      MatchedAction action,
      MergeCondition condition,
      MergeAssignment assignment,
      boolean conditional)
      implements Serializable {}

  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final List<String> keyColumns;
  private final List<MatchedClause> matched;
  private final MergeCondition insertCondition; // null: no whenNotMatchedInsert clause
  private final String orderingColumn; // null: duplicates are an error

  private DeltaMerge(Builder b) {
    this.table = b.table;
    this.schema = b.schema;
    this.keyColumns = List.copyOf(b.keyColumns);
    this.matched = List.copyOf(b.matched);
    this.insertCondition = b.insertCondition;
    this.orderingColumn = b.orderingColumn;
  }

  /**
   * Starts a MERGE into {@code table} (declared as {@code schema}) on equality of {@code
   * keyColumns}.
   */
  public static Builder into(DeltaTable table, DeltaTableSchema schema, String... keyColumns) {
    return new Builder(table, schema, List.of(keyColumns));
  }

  public DeltaTable table() {
    return table;
  }

  public DeltaTableSchema schema() {
    return schema;
  }

  public List<String> keyColumns() {
    return keyColumns;
  }

  List<MatchedClause> matchedClauses() {
    return matched;
  }

  Optional<MergeCondition> insertCondition() {
    return Optional.ofNullable(insertCondition);
  }

  /** The ordering column of the "last wins" rule, if one was named. */
  public Optional<String> orderingColumn() {
    return Optional.ofNullable(orderingColumn);
  }

  /** A readable form of the clauses, recorded in the commit's {@code commitInfo}. */
  String describeClauses() {
    List<String> parts = new ArrayList<>();
    for (MatchedClause c : matched) {
      parts.add(
          "whenMatched"
              + (c.action() == MatchedAction.DELETE
                  ? "Delete"
                  : c.assignment() == null ? "UpdateAll" : "Update")
              + (c.conditional() ? "(condition)" : ""));
    }
    if (insertCondition != null) {
      parts.add("whenNotMatchedInsertAll");
    }
    return String.join(", ", parts);
  }

  @Override
  public String toString() {
    return "DeltaMerge[" + table.path() + " ON " + keyColumns + ": " + describeClauses() + "]";
  }

  /** Builds a {@link DeltaMerge}; {@link #build()} checks the declaration. Not thread-safe. */
  public static final class Builder {
    private final DeltaTable table;
    private final DeltaTableSchema schema;
    private final List<String> keyColumns;
    private final List<MatchedClause> matched = new ArrayList<>();
    private MergeCondition insertCondition;
    private boolean hasInsert;
    private String orderingColumn;

    private Builder(DeltaTable table, DeltaTableSchema schema, List<String> keyColumns) {
      this.table = Objects.requireNonNull(table, "table");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.keyColumns = keyColumns;
    }

    /** {@code WHEN MATCHED THEN UPDATE SET *}: the source row replaces the target row. */
    public Builder whenMatchedUpdateAll() {
      return addMatched(MatchedAction.UPDATE, null, null);
    }

    /** {@code WHEN MATCHED AND condition THEN UPDATE SET *}. */
    public Builder whenMatchedUpdateAll(MergeCondition condition) {
      return addMatched(MatchedAction.UPDATE, Objects.requireNonNull(condition), null);
    }

    /** {@code WHEN MATCHED THEN UPDATE SET ...}, the new row computed by {@code set}. */
    public Builder whenMatchedUpdate(MergeAssignment set) {
      return addMatched(MatchedAction.UPDATE, null, Objects.requireNonNull(set));
    }

    /** {@code WHEN MATCHED AND condition THEN UPDATE SET ...}. */
    public Builder whenMatchedUpdate(MergeCondition condition, MergeAssignment set) {
      return addMatched(
          MatchedAction.UPDATE, Objects.requireNonNull(condition), Objects.requireNonNull(set));
    }

    /** {@code WHEN MATCHED THEN DELETE}. */
    public Builder whenMatchedDelete() {
      return addMatched(MatchedAction.DELETE, null, null);
    }

    /** {@code WHEN MATCHED AND condition THEN DELETE}. */
    public Builder whenMatchedDelete(MergeCondition condition) {
      return addMatched(MatchedAction.DELETE, Objects.requireNonNull(condition), null);
    }

    /** {@code WHEN NOT MATCHED THEN INSERT *} (the target row passed to a condition is null). */
    public Builder whenNotMatchedInsertAll() {
      return whenNotMatchedInsertAll(MergeCondition.always());
    }

    /** {@code WHEN NOT MATCHED AND condition THEN INSERT *}. */
    public Builder whenNotMatchedInsertAll(MergeCondition condition) {
      if (hasInsert) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MERGE,
            "Only one whenNotMatchedInsertAll clause is supported per MERGE");
      }
      hasInsert = true;
      insertCondition = Objects.requireNonNull(condition);
      return this;
    }

    /**
     * Several source rows with one key in a batch: the one with the greatest value in {@code
     * column} (a table column) wins, ties broken by the rows' values (deterministic on replay).
     * Without it, such a batch fails with {@link DuplicateMergeKeyException}.
     */
    public Builder lastByOrderingColumn(String column) {
      this.orderingColumn = Objects.requireNonNull(column, "column");
      return this;
    }

    private Builder addMatched(
        MatchedAction action, MergeCondition condition, MergeAssignment assignment) {
      matched.add(
          new MatchedClause(
              action,
              condition == null ? MergeCondition.always() : condition,
              assignment,
              condition != null));
      return this;
    }

    /**
     * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_MERGE}) if no key
     *     column is given, a key or ordering column is not a table column, there is no clause, or
     *     an unconditional matched clause is not the last matched clause (as in Delta, later
     *     clauses could never apply)
     */
    public DeltaMerge build() {
      sanityCheck();
      return new DeltaMerge(this);
    }

    private void sanityCheck() {
      if (keyColumns.isEmpty()) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MERGE,
            "A MERGE needs at least one key column: DeltaMerge.into(table, schema, \"id\")");
      }
      Set<String> seen = new HashSet<>();
      for (String key : keyColumns) {
        requireComparable(key, "Key column");
        if (!seen.add(key)) {
          throw new LakestreamException(
              DeltaErrorClass.DELTA_INVALID_MERGE, "Key column '" + key + "' is named twice");
        }
      }
      if (orderingColumn != null) {
        requireComparable(orderingColumn, "Ordering column (lastByOrderingColumn)");
      }
      if (matched.isEmpty() && !hasInsert) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MERGE,
            "A MERGE needs at least one clause: whenMatchedUpdate/whenMatchedDelete or"
                + " whenNotMatchedInsertAll");
      }
      for (int i = 0; i < matched.size() - 1; i++) {
        if (!matched.get(i).conditional()) {
          throw new LakestreamException(
              DeltaErrorClass.DELTA_INVALID_MERGE,
              "whenMatched clause "
                  + (i + 1)
                  + " has no condition, so the later whenMatched clauses could never apply: give"
                  + " it a condition or make it the last whenMatched clause");
        }
      }
    }

    /** A column whose values compare by value: not binary, array, map or struct. */
    private void requireComparable(String name, String what) {
      requireColumn(name, what);
      ColumnType type = schema.columns().get(schema.indexOf(name)).type();
      if (type.kind().isNested() || type.kind() == ColumnType.Kind.BINARY) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MERGE,
            what
                + " '"
                + name
                + "' is "
                + type
                + ", whose values a MERGE cannot match or order; use a column of a primitive type"
                + " (a string, number, date or timestamp)");
      }
    }

    private void requireColumn(String name, String what) {
      if (schema.indexOf(name) < 0) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_MERGE,
            what
                + " '"
                + name
                + "' is not a column of the table; columns are "
                + schema.columnNames());
      }
    }
  }
}
