package io.lakestream.connectors.delta.cdf;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableException;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Batch read of a Delta table's change data feed, like Delta's {@code table_changes(table, from,
 * to)}: for replay and audit. Flink-free; every row of the range is materialized in memory.
 *
 * <p>Rows are {@code Object[]}: the table's columns (schema of version {@code to}), then {@code
 * _change_type} ({@code insert}, {@code update_preimage}, {@code update_postimage} or {@code
 * delete}), {@code _commit_version} (Long) and {@code _commit_timestamp} ({@link
 * java.time.Instant}); see {@link #columnNames}. Which files the rows come from is described by
 * {@link DeltaChangeLog}; row order is by version, otherwise unspecified.
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
    Snapshot snapshot = snapshotForRange(fromVersion, toVersion);
    String schemaJson = snapshot.getSchema().toJson();
    List<DeltaChangeFile> files =
        new DeltaChangeLog(table, schemaJson).changeFiles(fromVersion, toVersion);
    DeltaChangeFileReader reader =
        new DeltaChangeFileReader(table, schemaJson, snapshot.getPartitionColumnNames());
    List<Object[]> out = new ArrayList<>();
    for (DeltaChangeFile file : files) {
      try (DeltaChangeFileReader.Rows rows = reader.open(file)) {
        while (rows.hasNext()) {
          out.add(rows.next());
        }
      } catch (IOException e) {
        throw new DeltaTableException(
            DeltaErrorClass.DELTA_TABLE_READ_FAILED,
            "Cannot read change file " + file.path() + ": " + e,
            e);
      }
    }
    return out;
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
