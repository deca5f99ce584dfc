package io.lakestream.runtime.ui;

import io.lakestream.state.checkpoint.CheckpointLocation;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The checkpoint locations the page shows: each watched URI is a location (it has a {@code
 * metadata} file) or a directory whose children, or grandchildren, are. Looked up again at each
 * request, so a query started later under a watched directory appears by itself. A watched URI that
 * cannot be read is skipped (the page lists what it can), and one whose storage does not answer
 * within {@link #PROBE_TIMEOUT} (an S3 endpoint that went away retries for minutes) is skipped
 * while its probe goes on in the background: it never holds up a request for longer than that, and
 * a request for a watched location by its key reads that location alone.
 *
 * <p>Thread-safe.
 */
final class QueryLocations {
  private static final int DEPTH = 2;

  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final Set<URI> watched = new CopyOnWriteArraySet<>();
  private final Map<URI, Future<List<URI>>> probes = new ConcurrentHashMap<>();
  private final ExecutorService prober =
      Executors.newCachedThreadPool(
          task -> {
            Thread t = new Thread(task, "lakestream-query-page-probe");
            t.setDaemon(true);
            return t;
          });

  void watch(URI uri) {
    watched.add(uri);
  }

  /**
   * The location of {@code key}: a watched location itself (no storage is asked), else one found
   * under the watched directories now; null if none.
   */
  CheckpointLocation byKey(String key) {
    for (URI uri : watched) {
      if (key(uri).equals(key)) {
        return new CheckpointLocation(uri);
      }
    }
    return find().get(key);
  }

  /** The locations found now, by {@link #key}, in the order found. */
  Map<String, CheckpointLocation> find() {
    Map<String, CheckpointLocation> found = new LinkedHashMap<>();
    for (URI uri : watched) {
      for (URI location : probe(uri)) {
        found.putIfAbsent(key(location), new CheckpointLocation(location));
      }
    }
    return found;
  }

  /**
   * The locations at or under {@code uri}; none if it cannot be read, or if it does not answer in
   * {@link #PROBE_TIMEOUT} (a probe still running from an earlier request is not waited for).
   */
  private List<URI> probe(URI uri) {
    boolean[] started = {false};
    Future<List<URI>> probe =
        probes.computeIfAbsent(
            uri,
            u -> {
              started[0] = true;
              return prober.submit(
                  () -> {
                    List<URI> locations = new ArrayList<>();
                    collect(new Path(u), DEPTH, locations);
                    return locations;
                  });
            });
    if (!started[0] && !probe.isDone()) {
      return List.of(); // still waiting on its storage
    }
    try {
      List<URI> locations = probe.get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      probes.remove(uri, probe);
      return locations;
    } catch (TimeoutException e) {
      return List.of(); // shown once its storage answers
    } catch (ExecutionException e) {
      probes.remove(uri, probe);
      return List.of(); // not (yet) there, or not readable: shown once it is
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
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
