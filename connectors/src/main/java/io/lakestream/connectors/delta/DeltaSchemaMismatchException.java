package io.lakestream.connectors.delta;

/**
 * An existing Delta table does not have the declared columns or partitioning. Nothing was written.
 * Fix the declaration to match the table, or write to a new path; lakestream does not evolve or
 * overwrite schemas of existing tables.
 */
public final class DeltaSchemaMismatchException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  public DeltaSchemaMismatchException(String message) {
    super(message);
  }
}
