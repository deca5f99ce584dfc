package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.Internal;
import java.util.Map;

/**
 * A file a streaming reader of a Delta table admits (a data file, {@link DeltaAddedFile}, or a
 * change file, {@link io.lakestream.connectors.delta.cdf.DeltaChangeFile}) at its position in the
 * stream: {@code (version, index)} orders every file of a stream, so a reader can resume after any
 * file.
 */
@Internal
public interface DeltaStreamFile {
  /** The file's absolute path or URI. */
  String path();

  /** The version the file belongs to. */
  long version();

  /** The file's position among the stream's files of that version, from 0. */
  int index();

  /** Partition column name to its value's text form (values may be null). */
  Map<String, String> partitionValues();

  /** The file's size in bytes. */
  long size();

  /** A stable identifier of the file's position, unique within the stream. */
  String positionId();
}
