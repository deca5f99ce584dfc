package io.lakestream.connectors.delta.cdf;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaDeletionVector;
import io.lakestream.connectors.delta.DeltaStreamFile;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One file whose rows are change rows of one Delta table version, and its position in the table's
 * change feed: {@code (version, index)} orders every change file, so a reader can resume after any
 * file (or after the first rows of one).
 *
 * @param path the file's absolute path or URI (resolved against the table root)
 * @param version the version whose commit holds the file's action
 * @param index the file's position among the change files of that version, from 0
 * @param commitTimestamp the version's commit time in epoch milliseconds (in-commit timestamp when
 *     the table has them, otherwise the commit file's modification time)
 * @param kind which action the file comes from, and so where its rows' change type comes from
 * @param partitionValues partition column name to its value's text form (values may be null)
 * @param size the file's size in bytes (0 when a {@code remove} action does not record it)
 * @param deletionVector rows of the file not read (its deletion vector), or null
 * @param selectionVector if not null, only rows of the file in this vector are read: a version that
 *     gives a file a new deletion vector deletes the rows of the new vector that the old one did
 *     not hold
 */
@Internal
public record DeltaChangeFile(
    String path,
    long version,
    int index,
    long commitTimestamp,
    Kind kind,
    Map<String, String> partitionValues,
    long size,
    DeltaDeletionVector deletionVector,
    DeltaDeletionVector selectionVector)
    implements DeltaStreamFile {

  /** Where a change file comes from. */
  public enum Kind {
    /**
     * A {@code cdc} action under {@code _change_data/}: each row carries its {@code _change_type}.
     */
    CDC,
    /** An {@code add} with {@code dataChange=true} in a version without cdc actions: inserts. */
    ADD,
    /** A {@code remove} with {@code dataChange=true} in a version without cdc actions: deletes. */
    REMOVE
  }

  public DeltaChangeFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
  }

  /** A whole file: no deletion or selection vector. */
  public DeltaChangeFile(
      String path,
      long version,
      int index,
      long commitTimestamp,
      Kind kind,
      Map<String, String> partitionValues,
      long size) {
    this(path, version, index, commitTimestamp, kind, partitionValues, size, null, null);
  }

  /**
   * The change type of every row of an {@link Kind#ADD} ({@code insert}) or {@link Kind#REMOVE}
   * ({@code delete}) file; null for a {@link Kind#CDC} file, whose rows carry their own.
   */
  public String fixedChangeType() {
    return switch (kind) {
      case ADD -> "insert";
      case REMOVE -> "delete";
      case CDC -> null;
    };
  }

  /**
   * The rows of a data file of a snapshot as inserts of the snapshot's version: what a change data
   * feed stream without {@code startingVersion} reads first.
   *
   * @param file a file of the snapshot (its version and index are the change file's)
   * @param commitTimestamp the snapshot version's commit time in epoch milliseconds
   */
  public static DeltaChangeFile insertsOf(DeltaAddedFile file, long commitTimestamp) {
    return new DeltaChangeFile(
        file.path(),
        file.version(),
        file.index(),
        commitTimestamp,
        Kind.ADD,
        file.partitionValues(),
        file.size(),
        file.deletionVector(),
        null);
  }

  /** This file at position {@code index} of its version. */
  public DeltaChangeFile withIndex(int index) {
    return new DeltaChangeFile(
        path,
        version,
        index,
        commitTimestamp,
        kind,
        partitionValues,
        size,
        deletionVector,
        selectionVector);
  }

  /** A stable identifier of the file's position, e.g. {@code cdf-5-0}. */
  public String positionId() {
    return "cdf-" + version + "-" + index;
  }
}
