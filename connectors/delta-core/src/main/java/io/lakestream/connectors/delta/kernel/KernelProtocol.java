package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.Snapshot;
import io.lakestream.api.annotation.Internal;
import java.util.Set;

/**
 * The table features a snapshot's protocol lists. Wraps Kernel's {@code actions.Protocol}, which
 * the public {@link Snapshot#getProtocol()} returns: a writer that commits its own actions (MERGE)
 * must know which features oblige it (row tracking, deletion vectors).
 */
@Internal
public final class KernelProtocol {
  private KernelProtocol() {}

  /** The writer features of the snapshot's protocol (empty before writer version 7). */
  public static Set<String> writerFeatures(Snapshot snapshot) {
    return Set.copyOf(snapshot.getProtocol().getWriterFeatures());
  }

  /** The reader features of the snapshot's protocol (empty before reader version 3). */
  public static Set<String> readerFeatures(Snapshot snapshot) {
    return Set.copyOf(snapshot.getProtocol().getReaderFeatures());
  }
}
