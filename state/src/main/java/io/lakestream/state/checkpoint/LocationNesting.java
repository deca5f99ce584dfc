package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.StateErrorClass;
import java.net.URI;
import java.util.Collection;

/**
 * Refuses a checkpoint location placed inside data the query reads or writes: inside a source's
 * input path the query would read its own state files; inside a table's data directory VACUUM or
 * readers would meet them. A {@code _}-prefixed directory such as {@code table/_checkpoints} is
 * allowed: readers and VACUUM skip those.
 */
@Internal
public final class LocationNesting {
  private LocationNesting() {}

  /**
   * @throws CheckpointLocationException naming the path it is nested in
   */
  public static void check(
      URI checkpointLocation, Collection<URI> inputPaths, Collection<URI> tablePaths) {
    for (URI input : inputPaths) {
      check(checkpointLocation, input, "a source's input path");
    }
    for (URI table : tablePaths) {
      check(checkpointLocation, table, "a table's data directory");
    }
  }

  private static void check(URI location, URI container, String what) {
    String loc = normalize(location);
    String dir = normalize(container);
    if (loc.equals(dir)) {
      throw new CheckpointLocationException(
          StateErrorClass.CHECKPOINT_LOCATION_OVERLAPS_DATA,
          "Checkpoint location " + location + " is " + what + " itself; " + advice(container));
    }
    if (loc.startsWith(dir + "/")) {
      String firstSegment = loc.substring(dir.length() + 1).split("/", 2)[0];
      if (!firstSegment.startsWith("_")) {
        throw new CheckpointLocationException(
            StateErrorClass.CHECKPOINT_LOCATION_OVERLAPS_DATA,
            "Checkpoint location "
                + location
                + " is inside "
                + what
                + " "
                + container
                + "; "
                + advice(container));
      }
    }
  }

  private static String advice(URI container) {
    String dir = normalize(container);
    return "the query would read or damage its own state. Put it outside, or under a"
        + " '_'-prefixed directory such as "
        + dir
        + "/_checkpoints/<query>, which readers and VACUUM skip.";
  }

  private static String normalize(URI uri) {
    String s = uri.normalize().toString().replaceAll("/+$", "");
    return s.replaceFirst("^file:/+", "file:///");
  }
}
