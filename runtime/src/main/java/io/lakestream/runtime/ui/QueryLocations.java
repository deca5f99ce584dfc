package io.lakestream.runtime.ui;

import io.lakestream.state.checkpoint.CheckpointLocation;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The checkpoint locations the page shows: each watched URI is a location (it has a {@code
 * metadata} file) or a directory whose children, or grandchildren, are. Looked up again at each
 * request, so a query started later under a watched directory appears by itself. A watched URI that
 * cannot be read is skipped (the page lists what it can).
 *
 * <p>Thread-safe.
 */
final class QueryLocations {
  private static final int DEPTH = 2;

  private final Set<URI> watched = new CopyOnWriteArraySet<>();

  void watch(URI uri) {
    watched.add(uri);
  }

  /** The locations found now, by {@link #key}, in the order found. */
  Map<String, CheckpointLocation> find() {
    Map<String, CheckpointLocation> found = new LinkedHashMap<>();
    for (URI uri : watched) {
      List<URI> locations = new ArrayList<>();
      try {
        collect(new Path(uri), DEPTH, locations);
      } catch (IOException | RuntimeException e) {
        continue; // not (yet) there, or not readable: shown once it is
      }
      for (URI location : locations) {
        found.putIfAbsent(key(location), new CheckpointLocation(location));
      }
    }
    return found;
  }

  private static void collect(Path dir, int depth, List<URI> out) throws IOException {
    FileSystem fs = dir.getFileSystem();
    if (fs.exists(new Path(dir, "metadata"))) {
      out.add(dir.toUri());
      return;
    }
    if (depth == 0 || !fs.exists(dir)) {
      return;
    }
    FileStatus[] children = fs.listStatus(dir);
    for (FileStatus child : children == null ? new FileStatus[0] : children) {
      if (child.isDir()) {
        collect(child.getPath(), depth - 1, out);
      }
    }
  }

  /**
   * A short stable id of a location for URLs: the start of the SHA-256 of its URI, written one way
   * ({@code file:/a/b}, {@code file:///a/b/} and {@code /a/b} are the same location).
   */
  static String key(URI location) {
    URI u = location.normalize();
    String authority = u.getRawAuthority() == null ? "" : "//" + u.getRawAuthority();
    String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
    String text = (u.getScheme() == null ? "file" : u.getScheme()) + ":" + authority + path;
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
