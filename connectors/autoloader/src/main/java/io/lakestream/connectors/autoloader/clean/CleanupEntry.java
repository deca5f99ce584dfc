package io.lakestream.connectors.autoloader.clean;

import io.lakestream.api.annotation.Internal;
import java.util.Objects;

/**
 * A read input file waiting to be cleaned: a Flink POJO (public fields, no-arg constructor) kept in
 * the file ledger's operator state, so no Kryo.
 */
@Internal
public final class CleanupEntry {
  /** The file's key, relative to the input path. */
  public String key;

  /** The checkpoint whose epoch read the file: its rows are committed when it completes. */
  public long checkpointId;

  /** When that checkpoint was seen complete (epoch ms); 0 while it is not. */
  public long committedAtMillis;

  public CleanupEntry() {}

  public CleanupEntry(String key, long checkpointId, long committedAtMillis) {
    this.key = Objects.requireNonNull(key, "key");
    this.checkpointId = checkpointId;
    this.committedAtMillis = committedAtMillis;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CleanupEntry e
        && key.equals(e.key)
        && checkpointId == e.checkpointId
        && committedAtMillis == e.committedAtMillis;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, checkpointId, committedAtMillis);
  }

  @Override
  public String toString() {
    return key + " (checkpoint " + checkpointId + ", committed at " + committedAtMillis + ")";
  }
}
