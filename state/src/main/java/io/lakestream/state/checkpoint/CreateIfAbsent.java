package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;

/**
 * A file system's atomic create-if-absent, which the checkpoint location's lease is built on: of
 * any number of writers creating one path at the same time, on any number of machines, exactly one
 * gets {@code true}, and readers see the whole file or none of it.
 *
 * <p>Local paths use a hard link ({@link LocalLinkCreate}); object stores are served by a {@link
 * Factory} found with {@link java.util.ServiceLoader} (the Delta connector registers S3's
 * conditional PUT, {@code If-None-Match: *}, for {@code s3}, {@code s3a} and {@code s3p}). {@link
 * CreateIfAbsentSelection} picks one per path.
 */
@PublicEvolving
public interface CreateIfAbsent {

  /**
   * Creates {@code path} holding {@code contents} if no file is there.
   *
   * @return true if this call created it; false if the file existed (another writer's)
   * @throws IOException if the file system failed, or cannot create a file only if absent
   */
  boolean create(Path path, byte[] contents) throws IOException;

  /**
   * Makes a {@link CreateIfAbsent} for some URI schemes, from the Flink configuration the process
   * was started with (e.g. {@code s3.endpoint}, {@code s3.access-key}). Registered in {@code
   * META-INF/services/io.lakestream.state.checkpoint.CreateIfAbsent$Factory}.
   */
  interface Factory {
    /** The URI schemes served, lower case. */
    Set<String> schemes();

    /**
     * A {@link CreateIfAbsent} for those schemes.
     *
     * @throws IOException if what it needs (a client library, a setting) is missing; the message
     *     says what to add
     */
    CreateIfAbsent create(Configuration flinkConfiguration) throws IOException;
  }
}
