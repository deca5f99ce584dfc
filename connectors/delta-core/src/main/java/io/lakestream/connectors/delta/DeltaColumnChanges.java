package io.lakestream.connectors.delta;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Which non-additive column changes of a streamed table a stream follows (Databricks' {@code
 * allowSourceColumnRename} and {@code allowSourceColumnDrop}): on a table with column mapping a
 * rename or a drop only changes the schema, the data files keep the columns' physical names, so a
 * stream rebuilt with the new schema reads every file correctly. Added columns are always followed.
 *
 * @param renames follow renamed columns (the rows carry the new name from the rebuild on)
 * @param drops follow dropped columns (the rows no longer carry them)
 */
@PublicEvolving
public record DeltaColumnChanges(boolean renames, boolean drops) implements Serializable {
  /** Only added columns are followed. */
  public static final DeltaColumnChanges ADDITIONS_ONLY = new DeltaColumnChanges(false, false);
}
