package io.lakestream.bench.spark;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code key=value} arguments the bench parent passes to a Spark child JVM. */
final class KeyValueArgs {
  private KeyValueArgs() {}

  /**
   * The arguments by key, in order.
   *
   * @throws IllegalArgumentException for an argument without {@code =}
   */
  static Map<String, String> parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
      }
      values.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return values;
  }
}
