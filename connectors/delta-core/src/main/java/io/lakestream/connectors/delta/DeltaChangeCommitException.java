package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * A streaming read of a Delta table met a version that removes or rewrites existing data (a {@code
 * remove} action with {@code dataChange=true}: DELETE, UPDATE, MERGE, overwrite). An append-only
 * stream cannot represent it, so the query stops rather than silently diverge from the table. The
 * message names the version and the two ways out: the source option {@code skipChangeCommits=true}
 * (ignore such versions entirely) or a restart from a later {@code startingVersion}. Error class
 * {@link DeltaErrorClass#DELTA_SOURCE_TABLE_IGNORE_CHANGES}, as Delta Lake names it.
 */
@PublicEvolving
public final class DeltaChangeCommitException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  private final long version;

  public DeltaChangeCommitException(String message, long version) {
    super(DeltaErrorClass.DELTA_SOURCE_TABLE_IGNORE_CHANGES, message);
    this.version = version;
  }

  /** The table version that changes existing data. */
  public long version() {
    return version;
  }
}
