package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Tells which elements of a changelog stream delete their key from the Lakebase table ({@link
 * LakebaseSinkBuilder#deletes}); the others upsert. A delete needs only the key's values: the
 * element's other values are ignored. Must be deterministic.
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
@FunctionalInterface
public interface DeleteSelector<T> extends Serializable {
  /** Whether {@code element} deletes the row of its key. */
  boolean isDelete(T element);
}
