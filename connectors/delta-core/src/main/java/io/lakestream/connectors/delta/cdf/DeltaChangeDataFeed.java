package io.lakestream.connectors.delta.cdf;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Batch read of a Delta table's change data feed, like Delta's {@code table_changes(table, from,
 * to)}: for replay and audit. Flink-free; every row of the range is materialized in memory.
 *
 * <p>Rows are {@code Object[]}: the table's columns (schema of version {@code to}), then {@code
 * _change_type} ({@code insert}, {@code update_preimage}, {@code update_postimage} or {@code
 * delete}), {@code _commit_version} (Long) and {@code _commit_timestamp} ({@link
 * java.time.Instant}); see {@link #columnNames}. Which files the rows come from is described by
 * {@link DeltaChangeLog}; row order is by version, otherwise unspecified. {@link #range} and {@link
 * #forEachRow} read the same rows version by version without holding them.
 *
 * <p>Failures: {@link ChangeDataFeedNotEnabledException} if {@code delta.enableChangeDataFeed} is
 * not true at some version of the range (names the version); {@link DeltaTableException} for a
 * range outside the table's history, a schema change within it, or an unreadable file.
 */
@PublicEvolving
public final class DeltaChangeDataFeed {
  private final DeltaTable table;

  /** A change feed reader of {@code table}; does no I/O until a read. */
  public DeltaChangeDataFeed(DeltaTable table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** The change rows of versions {@code fromVersion..toVersion} (inclusive) of {@code table}. */
  public static List<Object[]> tableChanges(DeltaTable table, long fromVersion, long toVersion) {
    return new DeltaChangeDataFeed(table).read(fromVersion, toVersion);
  }

  /**
   * The change rows of versions {@code fromVersion..toVersion} (inclusive).
   *
   * @throws DeltaTableException see the class comment
   */
  public List<Object[]> read(long fromVersion, long toVersion) {
    Range range = rangeOf(fromVersion, toVersion);
    List<Object[]> out = new ArrayList<>();
    readFiles(range, changeLog(range).changeFiles(fromVersion, toVersion), out::add);
    return out;
  }

  /**
   * Checks versions {@code fromVersion..toVersion} as {@link #read} does (the range is in the
   * table's history, the feed is enabled and the schema the same at every version of it), listing
   * their change files but reading no row; {@link #forEachRow} then reads them version by version.
   *
   * @throws DeltaTableException as {@link #read} does
   */
  public Range range(long fromVersion, long toVersion) {
    Range range = rangeOf(fromVersion, toVersion);
    changeLog(range).changeFiles(fromVersion, toVersion);
    return range;
  }

  /**
   * Passes the change rows of {@code version} of {@code range} to {@code rows}, as {@link #read}
   * returns them for that version, one change file at a time: memory holds one Parquet batch, not
   * the version's rows.
   *
   * @throws IllegalArgumentException if {@code version} is not in {@code range}
   * @throws DeltaTableException as {@link #read} does (e.g. a change file removed by VACUUM)
   */
  public void forEachRow(Range range, long version, Consumer<Object[]> rows) {
    if (version < range.from() || version > range.to()) {
      throw new IllegalArgumentException(
          "version " + version + " is not in " + range.from() + ".." + range.to());
    }
    readFiles(range, changeLog(range).changeFiles(version, version), rows);
  }

  /**
   * A checked range of versions of the change data feed and how its rows are read: with the schema
   * and partition columns of its last version.
   *
   * @param from first version (inclusive)
   * @param to last version (inclusive)
   * @param schemaJson the schema of version {@code to}
   * @param partitionColumns the partition columns of version {@code to}
   */
  public record Range(long from, long to, String schemaJson, List<String> partitionColumns)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    public Range {
      Objects.requireNonNull(schemaJson, "schemaJson");
      partitionColumns = List.copyOf(partitionColumns);
    }
  }

  private Range rangeOf(long from, long to) {
    Snapshot snapshot = snapshotForRange(from, to);
    return new Range(from, to, snapshot.getSchema().toJson(), snapshot.getPartitionColumnNames());
  }

  private DeltaChangeLog changeLog(Range range) {
    return new DeltaChangeLog(table, range.schemaJson());
  }

  private void readFiles(Range range, List<DeltaChangeFile> files, Consumer<Object[]> out) {
    DeltaChangeFileReader reader =
        new DeltaChangeFileReader(table, range.schemaJson(), range.partitionColumns());
    for (DeltaChangeFile file : files) {
      try (DeltaChangeFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          out.accept(rows.next());
        }
      } catch (IOException e) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_READ_FAILED,
            "Cannot read change file " + file.path() + ": " + e,
            e);
      }
    }
  }

  /**
   * The names of the change rows' columns for versions up to {@code toVersion}: the table's, then
   * {@link DeltaChangeFileReader#METADATA_COLUMNS}.
   */
  public List<String> columnNames(long toVersion) {
    List<String> names = new ArrayList<>(snapshotAt(toVersion).getSchema().fieldNames());
    names.addAll(DeltaChangeFileReader.METADATA_COLUMNS);
    return names;
  }

  private Snapshot snapshotForRange(long from, long to) {
    long latest =
        table
            .latestSnapshot()
            .orElseThrow(
                () ->
                    new DeltaTableException(
                        DeltaErrorClass.DELTA_TABLE_NOT_FOUND, "No Delta table at " + table.path()))
            .getVersion();
    if (from < 0 || from > to || to > latest) {
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_INVALID_VERSION_RANGE,
          "tableChanges("
              + from
              + ", "
              + to
              + ") on the Delta table at "
              + table.path()
              + ": versions out of range; the start must be >= 0 and <= the end, and the end <="
              + " the latest version "
              + latest);
    }
    return snapshotAt(to);
  }

  private Snapshot snapshotAt(long version) {
    return new DeltaTableReader(table).snapshotAtVersion(version);
  }
}
