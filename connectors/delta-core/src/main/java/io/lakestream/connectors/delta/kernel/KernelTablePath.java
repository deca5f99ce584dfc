package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.internal.util.InternalUtils;
import io.lakestream.api.annotation.Internal;
import java.net.URI;

/**
 * A table root, and the paths of log actions resolved against it or made relative to it exactly as
 * Kernel does. Wraps Kernel's {@code fs.Path} and {@code util.InternalUtils.relativizePath}: log
 * actions record URL-encoded paths relative to the table root, and Kernel's public API resolves
 * them only inside its own scans, not for actions read from a commit range or written by lakestream
 * (MERGE commits); using Kernel's own path type keeps the results identical to the paths Kernel's
 * scans report.
 */
@Internal
public final class KernelTablePath {
  private final Path root;

  private KernelTablePath(String root) {
    this.root = new Path(root);
  }

  /** The table whose root is {@code root} (an absolute path or URI, as Kernel reports it). */
  public static KernelTablePath of(String root) {
    return new KernelTablePath(root);
  }

  /**
   * The absolute path of a log action's path (URL-encoded, usually relative).
   *
   * @throws IllegalArgumentException if {@code path} is not a valid URI
   */
  public String resolve(String path) {
    URI uri = URI.create(path);
    return (uri.isAbsolute() ? new Path(uri) : new Path(root, new Path(uri))).toString();
  }

  /** The path a log action records for {@code absolutePath}: relative if under the root. */
  public String relativize(String absolutePath) {
    return InternalUtils.relativizePath(new Path(absolutePath), root.toUri()).toUri().toString();
  }
}
