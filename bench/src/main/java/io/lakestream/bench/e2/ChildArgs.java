package io.lakestream.bench.e2;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code key=value} arguments of a bench child JVM. */
public final class ChildArgs {
  private ChildArgs() {}

  public static Map<String, String> parse(String[] args) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("child argument must be key=value, was '" + arg + "'");
      }
      out.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return out;
  }
}
