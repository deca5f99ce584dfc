package io.lakestream.api.error;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.List;

/**
 * A failure that stops a stream because its input's schema changed (Auto Loader's {@code
 * UnknownFieldException}, say). When {@link #recorded()} the new schema is already recorded where
 * the query reads it when it is built, so the same query, rebuilt and restored from its checkpoint,
 * continues with it: the query runtime then restarts it by itself (unless turned off). A failure
 * that recorded nothing ({@code failOnNewColumns}) is final.
 */
@PublicEvolving
public interface SchemaChangeFailure {
  /** The columns that changed (added, or dropped/renamed where the source tells). */
  List<String> changedColumns();

  /** Whether the new schema is recorded, so that a rebuilt query reads it. */
  boolean recorded();
}
