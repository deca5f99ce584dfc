package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.FileStatus;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.filter.DeltaFileSkipping;
import io.lakestream.connectors.delta.kernel.KernelCommitRange.Action;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.kernel.KernelSchemaJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The data files a streaming reader of a Delta table admits, in a deterministic order: the files of
 * an initial snapshot (sorted by modification time, then path, as Spark's Delta source does), and
 * the files each later version adds. Flink-free.
 *
 * <p>Per version, as Spark's Delta streaming source: {@code add} actions with {@code
 * dataChange=true} are new data; a version whose actions all have {@code dataChange=false} (a
 * compaction, {@code OPTIMIZE}) contributes nothing. A version with a {@code remove} with {@code
 * dataChange=true} changes existing data: it fails with {@link DeltaChangeCommitException}, unless
 * {@code skipChangeCommits} (the whole version is skipped, its adds too) or {@code ignoreDeletes}
 * and the version adds no data (a pure delete is skipped). A version that changes the table's
 * schema fails with a {@link DeltaTableException} naming the version. A file's deletion vector
 * travels with it ({@link DeltaAddedFile#deletionVector()}): its deleted rows are not read. A
 * version that gives an existing file a new deletion vector (a DELETE, UPDATE or MERGE with
 * deletion vectors: remove and add of the same path) removes data, so it is a change commit.
 *
 * <p>With a {@link DeltaFileSkipping}, files none of whose rows can match its filter are left out,
 * of the snapshot and of later versions alike ({@link Listing#skipped()} counts them). A file keeps
 * the index it has among all files of its version, so a stream position means the same whatever the
 * filter: a query restarted with another filter reads no file twice, and applies the new filter to
 * the files after its position.
 */
@Internal
public final class DeltaTableChanges {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<Action> ACTIONS = Set.of(Action.ADD, Action.REMOVE, Action.METADATA);
  private final DeltaTable table;
  private final DeltaCommitRange commits;
  private final String schemaJson;
  private final boolean skipChangeCommits;
  private final boolean ignoreDeletes;
  private final DeltaFileSkipping skipping;
  private final DeltaColumnChanges followed;
  private final long schemaVersion;

  /**
   * The files of a snapshot or of a range of versions that may match the filter, and how many were
   * skipped.
   *
   * @param files the files, in stream order
   * @param skipped the files left out because none of their rows can match the filter
   */
  public record Listing(List<DeltaAddedFile> files, long skipped) {
    public Listing {
      files = List.copyOf(files);
    }
  }

  /**
   * As {@link #DeltaTableChanges(DeltaTable, String, boolean, boolean, DeltaFileSkipping)}, all
   * files.
   */
  public DeltaTableChanges(
      DeltaTable table, String schemaJson, boolean skipChangeCommits, boolean ignoreDeletes) {
    this(table, schemaJson, skipChangeCommits, ignoreDeletes, DeltaFileSkipping.none());
  }

  /**
   * @param table the table
   * @param schemaJson the schema the reader was built for ({@link StructType#toJson()}); a version
   *     that changes it fails
   * @param skipChangeCommits skip versions that remove or rewrite data (Spark's option name)
   * @param ignoreDeletes skip versions that only remove data (Spark's option name)
   * @param skipping which data files to leave out
   */
  public DeltaTableChanges(
      DeltaTable table,
      String schemaJson,
      boolean skipChangeCommits,
      boolean ignoreDeletes,
      DeltaFileSkipping skipping) {
    this(
        table,
        schemaJson,
        skipChangeCommits,
        ignoreDeletes,
        skipping,
        DeltaColumnChanges.ADDITIONS_ONLY,
        -1);
  }

  /**
   * As {@link #DeltaTableChanges(DeltaTable, String, boolean, boolean, DeltaFileSkipping)}, and
   * {@code followed} says which renames and drops of columns a version may make and still be
   * followed by a rebuilt query ({@link DeltaSchemaChangedException#recorded()}). Versions up to
   * {@code schemaVersion} (the one {@code schemaJson} is the schema of) are read with that later
   * schema, by physical name, when their own schema changes into it in ways followed.
   */
  public DeltaTableChanges(
      DeltaTable table,
      String schemaJson,
      boolean skipChangeCommits,
      boolean ignoreDeletes,
      DeltaFileSkipping skipping,
      DeltaColumnChanges followed,
      long schemaVersion) {
    this.followed = Objects.requireNonNull(followed, "followed");
    this.schemaVersion = schemaVersion;
    this.table = Objects.requireNonNull(table, "table");
    this.commits = new DeltaCommitRange(table);
    this.schemaJson = Objects.requireNonNull(schemaJson, "schemaJson");
    this.skipChangeCommits = skipChangeCommits;
    this.ignoreDeletes = ignoreDeletes;
    this.skipping = Objects.requireNonNull(skipping, "skipping");
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
   * Every data file of {@code version} that may match the filter, ordered by modification time then
   * path, indexed from 0 among all files of the version.
   *
   * @throws DeltaTableException if the version is not available or cannot be read
   */
  public List<DeltaAddedFile> snapshotFiles(long version) {
    return listSnapshot(version).files();
  }

  /**
   * {@link #snapshotFiles(long)} and the number of files the filter skipped.
   *
   * @throws DeltaTableException if the version is not available or cannot be read
   */
  public Listing listSnapshot(long version) {
    Snapshot snapshot;
    try {
      snapshot = table.kernelTable().getSnapshotAsOfVersion(table.engine(), version);
    } catch (TableNotFoundException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path(), e);
    } catch (KernelException
        | KernelEngineException
        | IllegalArgumentException
        | UncheckedIOException e) {
      throw KernelFailures.describe(
          table,
          "Cannot read version " + version + " of the Delta table at",
          e,
          DeltaErrorClass.DELTA_TABLE_READ_FAILED);
    }
    return listSnapshot(snapshot);
  }

  /**
   * Every data file of {@code snapshot} (of this table, already loaded), as {@link
   * #snapshotFiles(long)} lists those of its version.
   *
   * @throws DeltaTableException if the files cannot be listed
   */
  public List<DeltaAddedFile> snapshotFiles(Snapshot snapshot) {
    return listSnapshot(snapshot).files();
  }

  private Listing listSnapshot(Snapshot snapshot) {
    Engine engine = table.engine();
    long version = snapshot.getVersion();
    List<SnapshotFile> listed = new ArrayList<>();
    try {
      KernelScanFile.forEach(
          engine,
          snapshot.getScanBuilder().build(),
          true,
          scanFile -> listed.add(snapshotFile(scanFile, version)));
    } catch (IOException | UncheckedIOException | KernelException e) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_READ_FAILED,
          "Cannot list the files of version " + version + " of " + table.path() + ": " + e,
          e);
    }
    listed.sort(
        Comparator.comparingLong(SnapshotFile::modificationTime)
            .thenComparing(f -> f.status().getPath()));
    List<DeltaAddedFile> kept = new ArrayList<>(listed.size());
    for (int index = 0; index < listed.size(); index++) {
      SnapshotFile f = listed.get(index);
      if (f.mayMatch()) {
        kept.add(
            new DeltaAddedFile(
                f.status().getPath(),
                version,
                index,
                true,
                f.partitionValues(),
                f.status().getSize(),
                f.numRecords(),
                f.deletionVector()));
      }
    }
    return new Listing(kept, listed.size() - kept.size());
  }

  /**
   * A data file of a snapshot, before the snapshot's files are ordered (its statistics are not
   * kept: a snapshot may have many files).
   */
  private record SnapshotFile(
      FileStatus status,
      Map<String, String> partitionValues,
      long numRecords,
      boolean mayMatch,
      DeltaDeletionVector deletionVector) {
    long modificationTime() {
      return status.getModificationTime();
    }
  }

  private SnapshotFile snapshotFile(KernelScanFile scanFile, long version) {
    FileStatus status = scanFile.status();
    DeltaDeletionVector dv = scanFile.deletionVector();
    Map<String, String> partitionValues = scanFile.partitionValues();
    String stats = scanFile.stats();
    return new SnapshotFile(
        status,
        partitionValues,
        liveRecords(numRecords(stats), dv),
        skipping.mayMatch(partitionValues, stats),
        dv);
  }

  /**
   * The data files versions {@code from..to} (inclusive) add that may match the filter, in version
   * then commit order, each indexed from 0 among all files its version adds; versions are skipped
   * or refused as the class comment says.
   *
   * @throws DeltaChangeCommitException for a version that changes existing data
   * @throws DeltaTableException if a version changes the schema or cannot be read (e.g. its commit
   *     file was removed by log cleanup)
   */
  public List<DeltaAddedFile> versionFiles(long from, long to) {
    return listVersions(from, to).files();
  }

  /**
   * {@link #versionFiles(long, long)} and the number of files the filter skipped.
   *
   * @throws DeltaChangeCommitException for a version that changes existing data
   * @throws DeltaTableException as {@link #versionFiles(long, long)}
   */
  public Listing listVersions(long from, long to) {
    if (from > to) {
      return new Listing(List.of(), 0);
    }
    List<Listing> versions =
        commits.read(from, to, ACTIONS, "restart from a later startingVersion", this::filesOf);
    List<DeltaAddedFile> files = new ArrayList<>();
    long skipped = 0;
    for (Listing version : versions) {
      files.addAll(version.files());
      skipped += version.skipped();
    }
    return new Listing(files, skipped);
  }

  private List<Listing> filesOf(DeltaCommitRange.Commit commit) throws IOException {
    VersionActions actions = new VersionActions(commit.version());
    commit.forEachAction(actions);
    return List.of(actions.admitted());
  }

  /** What one version's actions add, remove and change. */
  private final class VersionActions implements DeltaCommitRange.ActionVisitor {
    private final long version;
    private final List<DeltaAddedFile> adds = new ArrayList<>();
    private int added;
    private boolean removesData;
    private boolean changesMetadata;

    VersionActions(long version) {
      this.version = version;
    }

    @Override
    public void visit(DeltaCommitRange.Actions actions, int row) throws IOException {
      if (actions.has(Action.METADATA, row)) {
        changesMetadata = true;
      }
      if (actions.changesData(Action.REMOVE, row)) {
        removesData = true;
      }
      if (actions.changesData(Action.ADD, row)) {
        String path = actions.path(Action.ADD, row);
        DeltaDeletionVector dv = actions.deletionVector(Action.ADD, row);
        int index = added++;
        Map<String, String> partitionValues = actions.partitionValues(Action.ADD, row);
        String stats = actions.stats(Action.ADD, row);
        if (skipping.mayMatch(partitionValues, stats)) {
          adds.add(
              new DeltaAddedFile(
                  path,
                  version,
                  index,
                  false,
                  partitionValues,
                  actions.size(Action.ADD, row),
                  liveRecords(numRecords(stats), dv),
                  dv));
        }
      }
    }

    /** The version's files as the class comment says, once all its actions are visited. */
    Listing admitted() {
      if (changesMetadata) {
        checkSchema(version);
      }
      if (!removesData) {
        return new Listing(adds, added - adds.size());
      }
      if (skipChangeCommits || (ignoreDeletes && added == 0)) {
        return new Listing(List.of(), 0);
      }
      throw new DeltaChangeCommitException(
          "Version "
              + version
              + " of the Delta table at "
              + table.path()
              + " removes or changes existing data (a remove action with dataChange=true, e.g."
              + " DELETE, UPDATE, MERGE or overwrite); a streaming read of the table is"
              + " append-only. Set the source option skipChangeCommits=true to skip such versions"
              + " entirely, or restart the query with a new checkpoint location and"
              + " startingVersion "
              + (version + 1)
              + " or later.",
          version);
    }
  }

  /**
   * Fails when version {@code version} changed the schema the stream reads: with a restartable
   * {@link DeltaSchemaChangedException} when it only added columns or made changes the stream
   * follows, else with a final one.
   */
  private void checkSchema(long version) {
    Snapshot snapshot = table.kernelTable().getSnapshotAsOfVersion(table.engine(), version);
    StructType actual = snapshot.getSchema();
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

  /** The rows of a file its deletion vector leaves, or -1 when the file's count is unknown. */
  private static long liveRecords(long numRecords, DeltaDeletionVector dv) {
    return numRecords < 0 || dv == null ? numRecords : Math.max(0, numRecords - dv.cardinality());
  }

  /** {@code numRecords} of a file's statistics JSON, or -1. */
  private static long numRecords(String stats) {
    if (stats == null || stats.isEmpty()) {
      return -1;
    }
    try {
      JsonNode n = JSON.readTree(stats).get("numRecords");
      return n == null || !n.canConvertToLong() ? -1 : n.asLong();
    } catch (IOException e) {
      return -1;
    }
  }
}
