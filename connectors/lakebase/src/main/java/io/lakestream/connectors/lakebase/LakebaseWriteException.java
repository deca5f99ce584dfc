package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;

/**
 * A batch the Lakebase sink could not write; the task fails with it and no row is dropped. Either a
 * non-transient error, reported for the first row that fails on its own (its key and, where
 * PostgreSQL or a probe can tell, the column), or a transient error that outlasted the retries (the
 * cause is the last one). Messages hold row keys but never a password.
 */
@PublicEvolving
public class LakebaseWriteException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String sqlState;
  private final String key;
  private final String column;

  public LakebaseWriteException(
      String message, String sqlState, String key, String column, Throwable cause) {
    super(message, cause);
    this.sqlState = sqlState;
    this.key = key;
    this.column = column;
  }

  /** The SQLState of the PostgreSQL error, or null. */
  public String sqlState() {
    return sqlState;
  }

  /** The failing row's key as {@code (k=v, ...)}, or null when no single row is to blame. */
  public String key() {
    return key;
  }

  /** The failing column, or null when it is not known. */
  public String column() {
    return column;
  }
}
