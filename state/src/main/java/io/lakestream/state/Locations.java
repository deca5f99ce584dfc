package io.lakestream.state;

import io.lakestream.api.annotation.Internal;
import java.io.File;
import java.util.regex.Pattern;

/**
 * Turns what users type as a location (a local path, {@code file:///...}, {@code s3://...}) into
 * the one absolute URI text lakestream stores and compares, so a query's identity never depends on
 * the working directory or on a trailing slash (which {@link File#toURI()} adds once a directory
 * exists).
 */
@Internal
public final class Locations {
  private static final Pattern HAS_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:/.*");

  private Locations() {}

  /**
   * {@code location} as an absolute URI without trailing slash: a location with a scheme is kept
   * (spaces escaped), anything else is a local path made absolute.
   */
  public static String absolute(String location) {
    String uri =
        HAS_SCHEME.matcher(location).matches()
            ? location.replace(" ", "%20")
            : new File(location).getAbsoluteFile().toURI().toString();
    return uri.replaceAll("/+$", "");
  }
}
