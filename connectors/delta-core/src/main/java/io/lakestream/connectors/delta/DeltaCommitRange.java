package io.lakestream.connectors.delta;

import io.delta.kernel.CommitActions;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.kernel.KernelCommitRange;
import io.lakestream.connectors.delta.kernel.KernelCommitRange.Action;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the log actions of a range of a Delta table's versions, one commit at a time: what the
 * streaming reader of the table's files ({@link DeltaTableChanges}) and the reader of its change
 * data feed ({@code cdf.DeltaChangeLog}) share. Each reader says what it takes from a commit; this
 * class opens the range, hands each commit's actions over row by row (file paths resolved against
 * the table root) and turns a failure into a {@link DeltaTableException} naming the range and the
 * table. Flink-free.
 */
@Internal
public final class DeltaCommitRange {
  /** What a reader takes from one commit. */
  @FunctionalInterface
  public interface CommitReader<T> {
    /**
     * @throws DeltaTableException to refuse the commit (rethrown as it is)
     * @throws IOException if the commit cannot be read
     */
    List<T> read(Commit commit) throws IOException;
  }

  /** What a reader does with one action row of a commit. */
  @FunctionalInterface
  public interface ActionVisitor {
    void visit(Actions actions, int row) throws IOException;
  }

  private final DeltaTable table;

  public DeltaCommitRange(DeltaTable table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /**
   * The latest version of the table.
   *
   * @throws DeltaTableException if there is no table or its log cannot be read
   */
  public long latestVersion() {
    return table
        .latestSnapshot()
        .orElseThrow(
            () ->
                new DeltaTableException(
                    DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path()))
        .getVersion();
  }

  /**
   * Fails unless {@code snapshot} (of {@code version}) has the schema {@code schemaJson}.
   *
   * @param differs the rest of the message after {@code "Version V of the Delta table at P"}, given
   *     the snapshot's schema
   * @throws DeltaTableException if the schemas differ
   */
  public void checkSchema(
      long version, Snapshot snapshot, String schemaJson, Function<StructType, String> differs) {
    StructType actual = snapshot.getSchema();
    if (!actual.toJson().equals(schemaJson)) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_SCHEMA_CHANGED,
          "Version " + version + " of the Delta table at " + table.path() + differs.apply(actual));
    }
  }

  /**
   * What {@code reader} takes from each commit of versions {@code from..to} (inclusive), in version
   * order, reading the actions of the kinds {@code actions}.
   *
   * @param advice what to do when the commits are gone, for the message (e.g. {@code "choose a
   *     later start version"})
   * @throws DeltaTableException a reader's own, or if a version cannot be read (e.g. its commit
   *     file was removed by log cleanup)
   */
  public <T> List<T> read(
      long from, long to, Set<Action> actions, String advice, CommitReader<T> reader) {
    Engine engine = table.engine();
    List<T> out = new ArrayList<>();
    try {
      String root = table.kernelTable().getPath(engine);
      KernelTablePath rootPath = KernelTablePath.of(root);
      try (CloseableIterator<CommitActions> commits =
          KernelCommitRange.commits(engine, root, from, to, actions)) {
        while (commits.hasNext()) {
          try (CommitActions commit = commits.next()) {
            out.addAll(reader.read(new Commit(commit, rootPath, actions)));
          }
        }
      }
    } catch (DeltaTableException e) {
      throw e;
    } catch (Exception e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot read versions "
              + from
              + " to "
              + to
              + " of the Delta table at "
              + table.path()
              + " (commits removed by log cleanup cannot be read: "
              + advice
              + "): "
              + e.getMessage(),
          e);
    }
    return out;
  }

  /** One commit of the range. */
  public static final class Commit {
    private final CommitActions commit;
    private final KernelTablePath root;
    private final Set<Action> kinds;

    private Commit(CommitActions commit, KernelTablePath root, Set<Action> kinds) {
      this.commit = commit;
      this.root = root;
      this.kinds = kinds;
    }

    public long version() {
      return commit.getVersion();
    }

    /** The commit time in epoch milliseconds (in-commit timestamp, else the file's time). */
    public long timestamp() {
      return commit.getTimestamp();
    }

    /** Visits every action row of the commit, in log order. */
    public void forEachAction(ActionVisitor visitor) throws IOException {
      try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
        while (batches.hasNext()) {
          Actions actions = new Actions(batches.next(), root, kinds);
          for (int row = 0; row < actions.size; row++) {
            visitor.visit(actions, row);
          }
        }
      }
    }
  }

  /**
   * A batch of a commit's action rows; each row holds one action, in the column of its kind. The
   * file fields are those of {@code add}, {@code remove} and {@code cdc} actions.
   */
  public static final class Actions {
    private final Map<Action, ColumnVector> columns = new EnumMap<>(Action.class);
    private final KernelTablePath root;
    private final int size;

    private Actions(ColumnarBatch batch, KernelTablePath root, Set<Action> kinds) {
      for (Action kind : kinds) {
        columns.put(kind, kind.column(batch));
      }
      this.root = root;
      this.size = batch.getSize();
    }

    /** Whether {@code row} is an action of {@code kind}. */
    public boolean has(Action kind, int row) {
      return !columns.get(kind).isNullAt(row);
    }

    /**
     * Whether {@code row} is a file action of {@code kind} with {@code dataChange} (default true).
     */
    public boolean changesData(Action kind, int row) {
      if (!has(kind, row)) {
        return false;
      }
      ColumnVector v = child(kind, "dataChange");
      return v == null || v.isNullAt(row) || v.getBoolean(row);
    }

    /** The absolute path of the file of {@code row}'s action of {@code kind}. */
    public String path(Action kind, int row) {
      return root.resolve(child(kind, "path").getString(row));
    }

    /** Whether the file of {@code row}'s action of {@code kind} has a deletion vector. */
    public boolean hasDeletionVector(Action kind, int row) {
      ColumnVector dv = child(kind, "deletionVector");
      return dv != null && !dv.isNullAt(row);
    }

    /** The deletion vector of the file of {@code row}'s action of {@code kind}, or null. */
    public DeltaDeletionVector deletionVector(Action kind, int row) {
      ColumnVector dv = child(kind, "deletionVector");
      if (dv == null || dv.isNullAt(row)) {
        return null;
      }
      StructType fields = (StructType) dv.getDataType();
      ColumnVector offset = dv.getChild(fields.indexOf("offset"));
      return new DeltaDeletionVector(
          dv.getChild(fields.indexOf("storageType")).getString(row),
          dv.getChild(fields.indexOf("pathOrInlineDv")).getString(row),
          offset.isNullAt(row) ? -1 : offset.getInt(row),
          dv.getChild(fields.indexOf("sizeInBytes")).getInt(row),
          dv.getChild(fields.indexOf("cardinality")).getLong(row));
    }

    /** Partition column name to its value's text form (values may be null). */
    public Map<String, String> partitionValues(Action kind, int row) {
      Map<String, String> out = new LinkedHashMap<>();
      ColumnVector vector = child(kind, "partitionValues");
      if (vector == null || vector.isNullAt(row)) {
        return out;
      }
      MapValue value = vector.getMap(row);
      ColumnVector keys = value.getKeys();
      ColumnVector values = value.getValues();
      for (int i = 0; i < value.getSize(); i++) {
        out.put(keys.getString(i), values.isNullAt(i) ? null : values.getString(i));
      }
      return out;
    }

    /** The file's size in bytes, 0 if the action does not record it. */
    public long size(Action kind, int row) {
      ColumnVector size = child(kind, "size");
      return size == null || size.isNullAt(row) ? 0 : size.getLong(row);
    }

    /** The file's statistics JSON, or null. */
    public String stats(Action kind, int row) {
      ColumnVector stats = child(kind, "stats");
      return stats == null || stats.isNullAt(row) ? null : stats.getString(row);
    }

    private ColumnVector child(Action kind, String name) {
      ColumnVector struct = columns.get(kind);
      int ordinal = ((StructType) struct.getDataType()).indexOf(name);
      return ordinal < 0 ? null : struct.getChild(ordinal);
    }
  }
}
