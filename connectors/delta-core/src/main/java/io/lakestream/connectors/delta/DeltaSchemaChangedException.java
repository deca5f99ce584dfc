package io.lakestream.connectors.delta;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.SchemaChangeFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A version of a streamed Delta table changed the table's schema ({@code DELTA_SCHEMA_CHANGED}).
 * When the change only adds columns (every column the stream reads is still there, with the same
 * type and metadata), the new schema is in the table's log, so the same query rebuilt from its
 * checkpoint reads it ({@link #recorded()}: the query runtime restarts it by itself, and older
 * files read the new columns as null). A dropped, renamed or retyped column, or a change of column
 * metadata (column mapping), is final: the message says how to restart.
 */
@PublicEvolving
public class DeltaSchemaChangedException extends DeltaTableException
    implements SchemaChangeFailure {
  private static final long serialVersionUID = 1L;

  private final List<String> changedColumns;
  private final boolean additive;

  private DeltaSchemaChangedException(String message, List<String> changed, boolean additive) {
    super(
        DeltaErrorClass.DELTA_SCHEMA_CHANGED,
        additive ? message + " " + SchemaChangeFailure.recordedNote(changed) : message);
    this.changedColumns = List.copyOf(changed);
    this.additive = additive;
  }

  /**
   * The failure for a stream read with {@code read} meeting a version with schema {@code actual}.
   *
   * @param prefix the message up to the schema, e.g. {@code "Version 7 of the Delta table at P"}
   * @param finalAdvice what to do when the change cannot be followed by a rebuilt query
   */
  static DeltaSchemaChangedException of(
      String prefix, StructType read, StructType actual, String finalAdvice) {
    List<String> added = new ArrayList<>();
    for (StructField field : actual.fields()) {
      if (read.indexOf(field.getName()) < 0) {
        added.add(field.getName());
      }
    }
    List<String> changed = new ArrayList<>();
    for (StructField field : read.fields()) {
      int now = actual.indexOf(field.getName());
      if (now < 0 || !actual.at(now).equals(field)) {
        changed.add(field.getName());
      }
    }
    boolean additive = changed.isEmpty() && !added.isEmpty();
    String message =
        prefix
            + " changes the table schema to "
            + actual
            + (additive
                ? "; it only adds columns "
                    + added
                    + ", which the query reads once rebuilt: it restarts by itself from its"
                    + " checkpoint (unless --restart-on-schema-change=false; then run it again)."
                : "; columns "
                    + (changed.isEmpty() ? added : changed)
                    + " were dropped, renamed, retyped or re-described, which a stream cannot"
                    + " follow from its checkpoint: "
                    + finalAdvice);
    return new DeltaSchemaChangedException(message, additive ? added : changed, additive);
  }

  @Override
  public List<String> changedColumns() {
    return changedColumns;
  }

  @Override
  public boolean recorded() {
    return additive;
  }
}
