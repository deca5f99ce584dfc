package io.lakestream.connectors.autoloader.discovery;

import io.lakestream.api.annotation.Internal;
import java.util.Objects;

/**
 * A file found in the input directory. A Flink POJO (public fields, no-arg constructor), so it
 * travels between the discovery source and the file ledger without Kryo.
 *
 * <p>{@code key} is the path relative to the input directory ({@code date=2026-11-29/f-1.json}):
 * listings are ordered by it and the ledger is keyed by it, so the same object is the same file
 * whatever URI scheme the input path was given with.
 */
@Internal
public final class DiscoveredFile {
  /** Path relative to the input directory, '/'-separated, without a leading '/'. */
  public String key;

  /** Size in bytes. */
  public long size;

  /** Modification time, epoch milliseconds. */
  public long modificationTime;

  public DiscoveredFile() {}

  public DiscoveredFile(String key, long size, long modificationTime) {
    this.key = Objects.requireNonNull(key, "key");
    this.size = size;
    this.modificationTime = modificationTime;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DiscoveredFile f
        && key.equals(f.key)
        && size == f.size
        && modificationTime == f.modificationTime;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, size, modificationTime);
  }

  @Override
  public String toString() {
    return key + " (" + size + " bytes, modified " + modificationTime + ")";
  }
}
