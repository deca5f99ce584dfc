package io.lakestream.connectors.autoloader.clean;

import io.lakestream.api.annotation.Internal;
import java.util.Locale;

/** What Auto Loader does with a processed input file ({@code cloudFiles.cleanSource}). */
@Internal
public enum CleanSourceMode {
  /** Leave it (the default). */
  OFF,
  /** Delete it once its rows are committed and the retention passed. */
  DELETE,
  /** Move it under {@code cloudFiles.cleanSource.moveDestination}, keeping its relative key. */
  MOVE;

  /**
   * Parses OFF, DELETE or MOVE, ignoring case.
   *
   * @throws IllegalArgumentException naming the option and the valid values
   */
  public static CleanSourceMode of(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Auto Loader option cloudFiles.cleanSource must be OFF, DELETE or MOVE, was '"
              + value
              + "'",
          e);
    }
  }
}
