package io.lakestream.connectors.delta.cdf;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaColumnChanges;
import io.lakestream.connectors.delta.DeltaCommitRange;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaSchemaChangedException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.kernel.KernelCommitRange.Action;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The change files of a range of Delta table versions, as Delta's change data feed defines them.
 * Flink-free; shared by the batch {@link DeltaChangeDataFeed} and the streaming CDF source.
 *
 * <p>Per version: if its commit has any {@code cdc} action, only its cdc files (under {@code
 * _change_data/}, rows carry {@code _change_type}) are change files; otherwise each {@code add}
 * with {@code dataChange=true} is a file of inserts and each {@code remove} with {@code
 * dataChange=true} a file of deletes (the removed file is still there until VACUUM). Versions whose
 * actions all have {@code dataChange=false} (OPTIMIZE, compaction) have no change files. Deletion
 * vectors count, as Delta's change data feed reader counts them: an added file's vector hides rows
 * from its inserts, a removed file's rows are those its vector left; a file removed and added again
 * with a new vector (a DELETE, UPDATE or MERGE with deletion vectors that wrote no cdc files)
 * deletes the rows its new vector holds and its old one did not (and re-inserts those the old one
 * held and the new one does not).
 *
 * <p>Failures, all naming the table: {@link ChangeDataFeedNotEnabledException} for a version at
 * which the metadata in effect does not set {@code delta.enableChangeDataFeed=true}; a {@link
 * DeltaTableException} for a version range outside the table's history, a version that changes the
 * table schema away from the one the reader was built for, or an unreadable log.
 */
@Internal
public final class DeltaChangeLog {
  /** The table property that makes writers record the change data feed. */
  public static final String ENABLE_PROPERTY = "delta.enableChangeDataFeed";

  private static final Set<Action> ACTIONS =
      Set.of(Action.ADD, Action.REMOVE, Action.CDC, Action.METADATA);

  private final DeltaTable table;
  private final DeltaCommitRange commits;
  private final String schemaJson;
  private final DeltaColumnChanges followed;
  private final long schemaVersion;

  /**
   * @param table the table
   * @param schemaJson the schema rows are read with ({@link StructType#toJson()}); a version in
   *     effect with another schema fails
   */
  public DeltaChangeLog(DeltaTable table, String schemaJson) {
    this(table, schemaJson, -1, null);
  }

  /**
   * A change log a stream reads, which follows schema changes as the Delta source does. Versions up
   * to {@code schemaVersion} (the one whose schema the stream reads with) are read with that later
   * schema, by physical name, when their own schema changes into it only by added columns and the
   * renames and drops {@code followed} allows. A later version that changes the schema so fails
   * with a {@link DeltaSchemaChangedException} the query runtime restarts the query on (rebuilt
   * with the new schema); any other change fails for good, naming the option that would follow it.
   *
   * @param schemaVersion the version {@code schemaJson} is the schema of
   * @param followed the renames and drops followed; null to require the read schema exactly
   */
  public DeltaChangeLog(
      DeltaTable table, String schemaJson, long schemaVersion, DeltaColumnChanges followed) {
    this.table = Objects.requireNonNull(table, "table");
    this.commits = new DeltaCommitRange(table);
    this.schemaJson = Objects.requireNonNull(schemaJson, "schemaJson");
    this.schemaVersion = schemaVersion;
    this.followed = followed;
  }

  public DeltaTable table() {
    return table;
  }

  /**
   * The latest version of the table.
   *
   * @throws DeltaTableException if there is no table or its log cannot be read
   */
  public long latestVersion() {
    return commits.latestVersion();
  }

  /**
   * The change files of versions {@code from..to} (inclusive), in version order, each version's
   * files indexed from 0.
   *
   * @throws ChangeDataFeedNotEnabledException for the first version in the range without the feed
   * @throws DeltaTableException if the range is not in the table's history, see the class comment
   */
  public List<DeltaChangeFile> changeFiles(long from, long to) {
    long latest = latestVersion();
    if (from < 0 || from > to || to > latest) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          "Change data feed versions "
              + from
              + " to "
              + to
              + " of the Delta table at "
              + table.path()
              + " are not a valid range: the start must be >= 0 and <= the end, and the end <= the"
              + " latest version "
              + latest);
    }
    checkVersion(from, snapshotAt(from));
    return commits.read(
        from, to, ACTIONS, "choose a later start version", commit -> filesOf(commit, from));
  }

  /**
   * The data files of the table as of {@code version}, as {@link DeltaChangeFile.Kind#ADD} files of
   * that version (their rows are inserts stamped with its commit timestamp), indexed from 0 in the
   * order Spark's Delta source reads an initial snapshot (modification time, then path). This is
   * what a change data feed stream without {@code startingVersion} emits first.
   *
   * @throws DeltaTableException if the version is not in the table's history or has another schema
   *     than the one the feed is read with
   */
  public List<DeltaChangeFile> snapshotFiles(long version) {
    Snapshot snapshot = snapshotAt(version);
    checkSchema(version, snapshot);
    long timestamp = snapshot.getTimestamp(table.engine());
    List<DeltaAddedFile> added =
        new DeltaTableChanges(table, schemaJson, false, false).snapshotFiles(snapshot);
    List<DeltaChangeFile> out = new ArrayList<>(added.size());
    for (DeltaAddedFile file : added) {
      out.add(DeltaChangeFile.insertsOf(file, timestamp));
    }
    return out;
  }

  private List<DeltaChangeFile> filesOf(DeltaCommitRange.Commit commit, long from)
      throws IOException {
    VersionChanges changes = new VersionChanges(commit.version(), commit.timestamp());
    commit.forEachAction(changes);
    if (changes.changesMetadata && commit.version() != from) {
      checkVersion(commit.version(), snapshotAt(commit.version()));
    }
    return changes.changeFiles();
  }

  /** The change files of one version's actions. */
  private final class VersionChanges implements DeltaCommitRange.ActionVisitor {
    private final long version;
    private final long timestamp;
    private final List<DeltaChangeFile> cdc = new ArrayList<>();
    private final List<DeltaChangeFile> adds = new ArrayList<>();
    private final List<DeltaChangeFile> removes = new ArrayList<>();
    private boolean changesMetadata;

    VersionChanges(long version, long timestamp) {
      this.version = version;
      this.timestamp = timestamp;
    }

    @Override
    public void visit(DeltaCommitRange.Actions actions, int row) throws IOException {
      changesMetadata |= actions.has(Action.METADATA, row);
      if (actions.has(Action.CDC, row)) {
        cdc.add(file(actions, Action.CDC, row, DeltaChangeFile.Kind.CDC));
      }
      if (actions.changesData(Action.ADD, row)) {
        adds.add(file(actions, Action.ADD, row, DeltaChangeFile.Kind.ADD));
      }
      if (actions.changesData(Action.REMOVE, row)) {
        removes.add(file(actions, Action.REMOVE, row, DeltaChangeFile.Kind.REMOVE));
      }
    }

    private DeltaChangeFile file(
        DeltaCommitRange.Actions actions, Action action, int row, DeltaChangeFile.Kind kind) {
      return new DeltaChangeFile(
          actions.path(action, row),
          version,
          0,
          timestamp,
          kind,
          actions.partitionValues(action, row),
          actions.size(action, row),
          actions.deletionVector(action, row),
          null);
    }

    /** The version's cdc files if it has any, else its data-changing adds and removes. */
    List<DeltaChangeFile> changeFiles() {
      List<DeltaChangeFile> chosen = cdc.isEmpty() ? dataFileChanges() : cdc;
      List<DeltaChangeFile> indexed = new ArrayList<>(chosen.size());
      for (DeltaChangeFile f : chosen) {
        indexed.add(f.withIndex(indexed.size()));
      }
      return indexed;
    }

    /**
     * Adds as inserts and removes as deletes, except a file both removed and added (a new deletion
     * vector): the rows the vectors differ in.
     */
    private List<DeltaChangeFile> dataFileChanges() {
      Map<String, DeltaChangeFile> removed = new LinkedHashMap<>();
      removes.forEach(f -> removed.put(f.path(), f));
      List<DeltaChangeFile> out = new ArrayList<>();
      for (DeltaChangeFile add : adds) {
        DeltaChangeFile remove = removed.remove(add.path());
        if (remove == null) {
          out.add(add);
          continue;
        }
        // deleted: in the new vector, not in the old one
        out.add(selected(remove, remove.deletionVector(), add.deletionVector()));
        if (remove.deletionVector() != null) { // re-inserted: in the old vector only
          out.add(selected(add, add.deletionVector(), remove.deletionVector()));
        }
      }
      out.addAll(removed.values());
      return out.stream().filter(f -> !selectsNothing(f)).toList();
    }

    private DeltaChangeFile selected(
        DeltaChangeFile file, DeltaDeletionVector hidden, DeltaDeletionVector selection) {
      return new DeltaChangeFile(
          file.path(),
          version,
          0,
          timestamp,
          file.kind(),
          file.partitionValues(),
          file.size(),
          hidden,
          selection == null ? EMPTY_SELECTION : selection);
    }
  }

  /** A selection of no rows (a file re-added without a vector deletes nothing). */
  private static final DeltaDeletionVector EMPTY_SELECTION =
      new DeltaDeletionVector("i", "", -1, 0, 0);

  private static boolean selectsNothing(DeltaChangeFile file) {
    return file.selectionVector() != null && file.selectionVector().cardinality() == 0;
  }

  /**
   * Fails unless the metadata in effect at {@code version} records the feed with our schema (or,
   * for a stream, with one it follows).
   */
  private void checkVersion(long version, Snapshot snapshot) {
    String enabled = snapshot.getTableProperties().get(ENABLE_PROPERTY);
    if (!"true".equalsIgnoreCase(enabled)) {
      throw new ChangeDataFeedNotEnabledException(
          "The change data feed of the Delta table at "
              + table.path()
              + " is not enabled at version "
              + version
              + " ("
              + ENABLE_PROPERTY
              + "="
              + enabled
              + " in the metadata in effect at that version), so its changes were not recorded."
              + " Set the table property "
              + ENABLE_PROPERTY
              + "=true (e.g. ALTER TABLE ... SET TBLPROPERTIES ('"
              + ENABLE_PROPERTY
              + "'='true')); it applies to versions committed afterwards, so read changes from a"
              + " version after the one that enabled it.",
          version);
    }
    checkSchema(version, snapshot);
  }

  private void checkSchema(long version, Snapshot snapshot) {
    if (followed != null) {
      checkFollowedSchema(version, snapshot.getSchema());
      return;
    }
    commits.checkSchema(
        version,
        snapshot,
        schemaJson,
        schema ->
            " has the schema "
                + schema
                + ", which differs from the schema the change data feed is read with; read the"
                + " versions before and after the schema change separately (a streaming query"
                + " restarts with a new checkpoint location and startingVersion "
                + version
                + ").");
  }

  /**
   * A stream's check: a version up to {@code schemaVersion} must have a schema that changes into
   * the read one in ways followed (its files are then read by physical name); a later version with
   * another schema fails, restartably when followed.
   */
  private void checkFollowedSchema(long version, StructType actual) {
    if (!actual.toJson().equals(schemaJson)) {
      DeltaSchemaChangedException.requireReadable(
          table.path(),
          KernelSchemaJson.parse(schemaJson),
          schemaVersion,
          version,
          actual,
          followed);
    }
  }

  private Snapshot snapshotAt(long version) {
    return new DeltaTableReader(table).snapshotAtVersion(version);
  }
}
