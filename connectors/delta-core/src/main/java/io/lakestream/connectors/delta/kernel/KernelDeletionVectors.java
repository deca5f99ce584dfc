package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.lakestream.api.annotation.Internal;
import java.util.Optional;

/**
 * Where a deletion vector lives, from the fields of a {@code deletionVector} descriptor in a log
 * action. Wraps Kernel's {@code internal.actions.DeletionVectorDescriptor}, which decodes the
 * descriptor's relative (UUID, base85) and absolute forms as the Delta protocol defines them.
 */
@Internal
public final class KernelDeletionVectors {
  private KernelDeletionVectors() {}

  /**
   * The absolute path of the file holding the deletion vector, or empty for an inline one.
   *
   * @param storageType {@code u} (relative, a UUID), {@code p} (absolute path) or {@code i}
   * @param tableRoot the table's root, as Kernel resolves it
   * @throws IllegalArgumentException if the descriptor is malformed
   */
  public static Optional<String> filePath(
      String storageType,
      String pathOrInlineDv,
      Integer offset,
      int sizeInBytes,
      long cardinality,
      String tableRoot) {
    DeletionVectorDescriptor dv =
        new DeletionVectorDescriptor(
            storageType, pathOrInlineDv, Optional.ofNullable(offset), sizeInBytes, cardinality);
    return dv.isOnDisk() ? Optional.of(dv.getAbsolutePath(tableRoot)) : Optional.empty();
  }
}
