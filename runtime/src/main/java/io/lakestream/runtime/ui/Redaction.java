package io.lakestream.runtime.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Takes secrets out of what the page shows. Checkpoint locations hold no option values, but
 * descriptions and targets are free text (a JDBC URL, a path with credentials): a field whose name
 * says password, secret, token, credential or key and whose value is text (a partition named {@code
 * tokens-0} keeps its numeric offset) is replaced by {@value #REDACTED}, as are the password in a
 * URL's user info and {@code password=}/{@code token=}-style parameters inside any text.
 */
final class Redaction {
  static final String REDACTED = "<redacted>";

  private static final Pattern SECRET_NAME =
      Pattern.compile(
          "(?i).*(password|passwd|pwd|secret|token|credential|apikey|api[_.-]key|access[_.-]?key"
              + "|private[_.-]?key|signature|session[_.-]?key|auth).*");

  /** {@code scheme://user:password@host}: the password. */
  private static final Pattern URL_PASSWORD = Pattern.compile("(://[^/\\s:@]+:)([^/\\s@]+)(@)");

  /** {@code password=...}, {@code token: ...} and the like inside text. */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)((?:password|passwd|pwd|secret|token|credential|api[_.-]?key|access[_.-]?key"
              + "|secret[_.-]?key|signature)[\\w.-]*\\s*[=:]\\s*)([^&;,\\s\"'}]+)");

  private Redaction() {}

  /** A copy of {@code json} without secrets. */
  static JsonNode redact(JsonNode json) {
    JsonNode copy = json.deepCopy();
    redactInPlace(copy);
    return copy;
  }

  /** {@code text} with URL passwords and secret parameters replaced. */
  static String redact(String text) {
    if (text == null) {
      return null;
    }
    String out = URL_PASSWORD.matcher(text).replaceAll("$1" + REDACTED + "$3");
    return SECRET_PARAMETER.matcher(out).replaceAll("$1" + REDACTED);
  }

  /** Whether a field named {@code name} holds a secret (not a number of them). */
  static boolean secretName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return SECRET_NAME.matcher(n).matches() && !n.startsWith("num") && !n.startsWith("estimate");
  }

  private static void redactInPlace(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode value = object.get(name);
        if (secretName(name) && value.isTextual()) {
          object.put(name, REDACTED);
        } else if (value.isTextual()) {
          object.set(name, TextNode.valueOf(redact(value.asText())));
        } else {
          redactInPlace(value);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode value = array.get(i);
        if (value.isTextual()) {
          array.set(i, TextNode.valueOf(redact(value.asText())));
        } else {
          redactInPlace(value);
        }
      }
    }
  }
}
