package io.lakestream.connectors.delta;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.SchemaChangeFailure;
import io.lakestream.connectors.delta.kernel.KernelColumnMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A version of a streamed Delta table changed the table's schema ({@code DELTA_SCHEMA_CHANGED}).
 * Columns are matched by their physical names (column mapping), so a renamed column is told from a
 * dropped and an added one. When the change only adds columns (every column the stream reads is
 * still there, with the same name, type and metadata; column-mapping metadata a table gains when
 * mapping is turned on does not count), or also renames or drops columns the stream was told to
 * follow ({@link DeltaColumnChanges}: {@code allowSourceColumnRename}, {@code
 * allowSourceColumnDrop}), the new schema is in the table's log, so the same query rebuilt from its
 * checkpoint reads it ({@link #recorded()}: the query runtime restarts it by itself; older files
 * read new columns as null and renamed ones under their new name). Any other change (a retyped or
 * re-described column, or a rename or drop not allowed) is final: the message names the option to
 * set or says how to restart.
 */
@PublicEvolving
public class DeltaSchemaChangedException extends DeltaTableException
    implements SchemaChangeFailure {
  private static final long serialVersionUID = 1L;

  private final List<String> changedColumns;
  private final boolean followable;

  private DeltaSchemaChangedException(String message, List<String> changed, boolean followable) {
    super(
        DeltaErrorClass.DELTA_SCHEMA_CHANGED,
        followable ? message + " " + SchemaChangeFailure.recordedNote(changed) : message);
    this.changedColumns = List.copyOf(changed);
    this.followable = followable;
  }

  /** As {@link #of(String, StructType, StructType, String, DeltaColumnChanges)}, additions only. */
  static DeltaSchemaChangedException of(
      String prefix, StructType read, StructType actual, String finalAdvice) {
    return of(prefix, read, actual, finalAdvice, DeltaColumnChanges.ADDITIONS_ONLY);
  }

  /**
   * The failure for a stream read with {@code read} meeting a version with schema {@code actual}.
   *
   * @param prefix the message up to the schema, e.g. {@code "Version 7 of the Delta table at P"}
   * @param finalAdvice what to do when the change cannot be followed by a rebuilt query
   * @param allowed the renames and drops the stream follows
   */
  static DeltaSchemaChangedException of(
      String prefix,
      StructType read,
      StructType actual,
      String finalAdvice,
      DeltaColumnChanges allowed) {
    ColumnDiff diff = ColumnDiff.between(read, actual);
    boolean followable =
        diff.changed.isEmpty()
            && (diff.renamed.isEmpty() || allowed.renames())
            && (diff.dropped.isEmpty() || allowed.drops())
            && !diff.all().isEmpty();
    String message = prefix + " changes the table schema to " + actual + "; " + diff.describe();
    if (followable) {
      message +=
          ", which the query reads once rebuilt: it restarts by itself from its checkpoint"
              + " (unless --restart-on-schema-change=false; then run it again).";
    } else {
      message += ", which a stream cannot follow from its checkpoint" + diff.options(allowed);
      message += ": " + finalAdvice;
    }
    return new DeltaSchemaChangedException(
        message, followable ? diff.all() : diff.blocking(allowed), followable);
  }

  /**
   * Fails unless a stream reading with {@code read}, the schema of version {@code schemaVersion},
   * may read version {@code version}, whose schema is {@code actual}. A later version with another
   * schema fails ({@link #recorded()} when the change is followed, so a rebuilt query reads on); an
   * earlier one (the stream was built after its schema changed) is read with {@code read}, by
   * physical name, when its schema changed into {@code read} only in ways followed. A change that
   * cannot be followed says to restart the query with a new checkpoint location from {@code
   * version}.
   *
   * @param tablePath the table's path, for the message
   */
  public static void requireReadable(
      String tablePath,
      StructType read,
      long schemaVersion,
      long version,
      StructType actual,
      DeltaColumnChanges followed) {
    if (actual.toJson().equals(read.toJson())) {
      return;
    }
    String prefix = "Version " + version + " of the Delta table at " + tablePath;
    String finalAdvice =
        "restart the query with a new checkpoint location and startingVersion "
            + version
            + " to continue from this version.";
    if (version > schemaVersion) {
      throw of(prefix, read, actual, finalAdvice, followed);
    }
    DeltaSchemaChangedException intoRead = of(prefix, actual, read, finalAdvice, followed);
    if (!intoRead.recorded()) {
      throw intoRead;
    }
  }

  /** How the columns of two schemas differ, matched by physical name. */
  private static final class ColumnDiff {
    final List<String> added = new ArrayList<>();
    final List<String> renamed = new ArrayList<>(); // "old -> new"
    final List<String> renamedFrom = new ArrayList<>();
    final List<String> dropped = new ArrayList<>();
    final List<String> changed = new ArrayList<>();

    static ColumnDiff between(StructType read, StructType actual) {
      ColumnDiff diff = new ColumnDiff();
      Map<String, StructField> now = byPhysicalName(actual);
      Map<String, StructField> before = byPhysicalName(read);
      for (StructField field : read.fields()) {
        StructField current = now.get(KernelColumnMapping.physicalName(field));
        if (current == null) {
          diff.dropped.add(field.getName());
        } else if (!sameColumn(field, current)) {
          diff.changed.add(field.getName());
        } else if (!current.getName().equals(field.getName())) {
          diff.renamed.add(field.getName() + " -> " + current.getName());
          diff.renamedFrom.add(field.getName());
        }
      }
      for (StructField field : actual.fields()) {
        if (!before.containsKey(KernelColumnMapping.physicalName(field))) {
          diff.added.add(field.getName());
        }
      }
      return diff;
    }

    private static Map<String, StructField> byPhysicalName(StructType schema) {
      Map<String, StructField> out = new LinkedHashMap<>();
      for (StructField field : schema.fields()) {
        out.put(KernelColumnMapping.physicalName(field), field);
      }
      return out;
    }

    /** Same type, nullability and metadata besides column mapping's. */
    private static boolean sameColumn(StructField read, StructField actual) {
      return read.getDataType().equals(actual.getDataType())
          && read.isNullable() == actual.isNullable()
          && KernelColumnMapping.sameMetadataBesidesMapping(
              read.getMetadata(), actual.getMetadata());
    }

    List<String> all() {
      List<String> all = new ArrayList<>(added);
      all.addAll(renamedFrom);
      all.addAll(dropped);
      return all;
    }

    /** The columns that stop the stream. */
    List<String> blocking(DeltaColumnChanges allowed) {
      List<String> out = new ArrayList<>(changed);
      if (!allowed.renames()) {
        out.addAll(renamedFrom);
      }
      if (!allowed.drops()) {
        out.addAll(dropped);
      }
      return out.isEmpty() ? all() : out;
    }

    String describe() {
      List<String> parts = new ArrayList<>();
      if (!added.isEmpty()) {
        parts.add("adds columns " + added);
      }
      if (!renamed.isEmpty()) {
        parts.add("renames columns " + renamed);
      }
      if (!dropped.isEmpty()) {
        parts.add("drops columns " + dropped);
      }
      if (!changed.isEmpty()) {
        parts.add("retypes or re-describes columns " + changed);
      }
      return String.join(", ", parts);
    }

    /** The options that would let the stream follow, when only they are missing. */
    String options(DeltaColumnChanges allowed) {
      if (!changed.isEmpty()) {
        return "";
      }
      List<String> options = new ArrayList<>();
      if (!renamed.isEmpty() && !allowed.renames()) {
        options.add("allowSourceColumnRename=true");
      }
      if (!dropped.isEmpty() && !allowed.drops()) {
        options.add("allowSourceColumnDrop=true");
      }
      return options.isEmpty()
          ? ""
          : " unless the source option "
              + String.join(" and ", options)
              + " is set (on a table with column mapping; the rebuilt query then reads every file"
              + " by the columns' physical names)";
    }
  }

  @Override
  public List<String> changedColumns() {
    return changedColumns;
  }

  @Override
  public boolean recorded() {
    return followable;
  }
}
