package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;

/**
 * The declared schema differs from the table's in a way {@code mergeSchema=true} never applies: a
 * dropped or renamed column, a type change, a nullability change, a reordered column, a new NOT
 * NULL column, or other partition columns. The message names the broken {@link
 * DeltaSchemaChange.Rule} and the option. Nothing was written; change the declaration, or rewrite
 * the table (for example with Spark's {@code overwriteSchema}) outside the streaming query. Error
 * class {@link DeltaErrorClass#DELTA_UNSUPPORTED_SCHEMA_CHANGE}.
 */
@PublicEvolving
public final class DeltaSchemaEvolutionException extends DeltaSchemaMismatchException {
  private static final long serialVersionUID = 1L;

  public DeltaSchemaEvolutionException(String message) {
    super(DeltaErrorClass.DELTA_UNSUPPORTED_SCHEMA_CHANGE, message);
  }
}
