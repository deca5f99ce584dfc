package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.Internal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One data file a Delta table version added (or, for an initial snapshot, one file of the snapshot)
 * and its position in the table's history: {@code (version, index)} orders every file a streaming
 * reader admits, so a reader can resume after any file.
 *
 * @param path the file's absolute path or URI (resolved against the table root, URL-decoded)
 * @param version the version that added it, or the snapshot's version when {@code initialSnapshot}
 * @param index its position among the admitted files of that version (or of the snapshot)
 * @param initialSnapshot true if the file belongs to the initial snapshot rather than to the commit
 *     of {@code version}
 * @param partitionValues partition column name to its value's text form (values may be null)
 * @param size the file's size in bytes
 * @param numRecords the file's row count from its statistics (less the rows its deletion vector
 *     deletes), or -1 if it has none
 * @param deletionVector the file's deletion vector in the version, or null: its rows are not read
 */
@Internal
public record DeltaAddedFile(
    String path,
    long version,
    int index,
    boolean initialSnapshot,
    Map<String, String> partitionValues,
    long size,
    long numRecords,
    DeltaDeletionVector deletionVector)
    implements DeltaStreamFile {

  public DeltaAddedFile {
    Objects.requireNonNull(path, "path");
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
  }

  /** A file without a deletion vector. */
  public DeltaAddedFile(
      String path,
      long version,
      int index,
      boolean initialSnapshot,
      Map<String, String> partitionValues,
      long size,
      long numRecords) {
    this(path, version, index, initialSnapshot, partitionValues, size, numRecords, null);
  }

  /** A stable identifier of the file's position, e.g. {@code snapshot-4-17} or {@code v-5-0}. */
  public String positionId() {
    return (initialSnapshot ? "snapshot-" : "v-") + version + "-" + index;
  }
}
