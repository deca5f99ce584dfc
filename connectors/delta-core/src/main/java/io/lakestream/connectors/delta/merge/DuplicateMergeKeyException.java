package io.lakestream.connectors.delta.merge;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTableException;

/**
 * A MERGE batch held several source rows with one key and no ordering column was named, so which
 * one should apply is undefined (Delta Lake fails the same way). Nothing was written. Deduplicate
 * the batch, or name an ordering column with {@link DeltaMerge.Builder#lastByOrderingColumn}. Error
 * class {@link DeltaErrorClass#DELTA_DUPLICATE_MERGE_KEY}.
 */
@PublicEvolving
public final class DuplicateMergeKeyException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  public DuplicateMergeKeyException(String message) {
    super(DeltaErrorClass.DELTA_DUPLICATE_MERGE_KEY, message);
  }
}
