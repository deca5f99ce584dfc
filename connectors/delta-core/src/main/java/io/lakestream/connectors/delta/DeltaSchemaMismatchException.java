package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * An existing Delta table does not have the declared columns or partitioning. Nothing was written.
 * Fix the declaration to match the table, write to a new path, or, when the declaration only adds
 * nullable columns at the end, set {@code mergeSchema=true} so the table evolves (the message says
 * which applies). Error class {@link DeltaErrorClass#DELTA_SCHEMA_MISMATCH}. {@link
 * DeltaSchemaEvolutionException} is the case {@code mergeSchema} cannot fix.
 */
@PublicEvolving
public class DeltaSchemaMismatchException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  public DeltaSchemaMismatchException(String message) {
    super(DeltaErrorClass.DELTA_SCHEMA_MISMATCH, message);
  }

  /** For {@link DeltaSchemaEvolutionException}, which has a class of its own. */
  DeltaSchemaMismatchException(DeltaErrorClass errorClass, String message) {
    super(errorClass, message);
  }
}
