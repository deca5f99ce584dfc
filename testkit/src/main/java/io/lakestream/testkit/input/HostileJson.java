package io.lakestream.testkit.input;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded hostile variants of one-object JSON records, for property tests of parsers. The caller
 * gives the record's fields as JSON literals ({@code "name" -> "\"Ana\""}, {@code "id" -> "7"});
 * {@link #next} picks a {@link Kind} and applies it to one field or to the whole text. The same
 * seed gives the same cases, so a failing case is replayed from the seed and index a test prints.
 *
 * <p>No case contains a raw line break ({@code \n} or {@code \r}), so each is one line of a JSON
 * lines file.
 */
public final class HostileJson {
  /** What was done to the valid record. */
  public enum Kind {
    /** Unchanged: must parse to the given values. */
    VALID(false),
    /** Cut short at a random point: never valid. */
    TRUNCATED(true),
    /** A structural character removed or added: never valid JSON. */
    BROKEN_SYNTAX(true),
    /** Bytes that are not UTF-8 inside a string value: never valid. */
    INVALID_UTF8(true),
    /** A raw NUL byte inside a string value (JSON requires it escaped): never valid. */
    RAW_NUL(true),
    /** An escaped NUL ({@code \u0000}) inside a string value: valid JSON. */
    ESCAPED_NUL(false),
    /** A value replaced by arrays or objects nested up to thousands deep. */
    DEEP_NESTING(false),
    /** A value replaced by a string of 10K to 1M characters. */
    LARGE_VALUE(false),
    /** A value replaced by a number out of range for most types ({@code 1e999999999}, ...). */
    NUMBER_OUT_OF_RANGE(false),
    /**
     * A value replaced by {@code NaN}, {@code Infinity} or another non-JSON number: never valid.
     */
    NON_JSON_NUMBER(true),
    /** A value replaced by one of another JSON type (boolean, array, object, string, number). */
    WRONG_TYPE(false),
    /** A key given twice with different values: never accepted (one value would be lost). */
    DUPLICATE_KEY(true),
    /** A JSON value that is not an object (array, number, string, null): never a record. */
    NOT_AN_OBJECT(true),
    /** Text after the object: never valid. */
    TRAILING_CONTENT(true);

    private final boolean neverValid;

    Kind(boolean neverValid) {
      this.neverValid = neverValid;
    }

    /** Whether every parser must reject (or rescue as corrupt) a case of this kind. */
    public boolean neverValid() {
      return neverValid;
    }
  }

  /** One generated record: what was done, to which field (null: the whole text), and its bytes. */
  public record Case(Kind kind, String field, byte[] bytes) {
    /** The bytes as text (invalid UTF-8 replaced), for messages. */
    public String text() {
      String text = new String(bytes, StandardCharsets.UTF_8);
      return text.length() > 300
          ? text.substring(0, 300) + "... (" + bytes.length + " bytes)"
          : text;
    }
  }

  private static final String[] OUT_OF_RANGE = {
    "1e999999999",
    "-1e999999999",
    "1e-999999999",
    "1E+2147483647",
    "1e400",
    "-1e400",
    "4.9e-325",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "9223372036854775808",
    "2147483648",
    "0.000000000000000000000000000000000000001",
    "12345678901.005",
    "-0.0",
    "1" + "0".repeat(999),
  };
  private static final String[] NON_JSON_NUMBERS = {
    "NaN", "Infinity", "-Infinity", "+5", "0x1F", "01", ".5", "5.", "1e", "--1"
  };
  private static final String[] OTHER_TYPES = {
    "true",
    "false",
    "[]",
    "[1,2]",
    "{}",
    "{\"a\":1}",
    "\"text\"",
    "\"\"",
    "5",
    "-2.5",
    "null",
    "\"2026-13-45T99:00:00Z\"",
    "\"+1000000000-01-01T00:00:00Z\"",
    "\"-0001-01-01T00:00:00Z\"",
    "\"+10000-01-01\"",
    "\"0000-12-31\"",
    "\"1e999999999\"",
    "\" 42 \""
  };
  private static final byte[][] INVALID_UTF8 = {
    {(byte) 0xC3, 0x28},
    {(byte) 0xFF},
    {(byte) 0x80},
    {(byte) 0xC0, (byte) 0xAF},
    {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {(byte) 0xE2, (byte) 0x82}
  };

  private final Random random;
  private final Map<String, String> fields;

  /**
   * @param seed the seed; print it with the failing case's index
   * @param fields the valid record's fields as JSON literals, in order
   */
  public HostileJson(long seed, Map<String, String> fields) {
    this.random = new Random(seed);
    this.fields = new LinkedHashMap<>(fields);
  }

  /** The random source, for callers that also vary the valid values between cases. */
  public Random random() {
    return random;
  }

  /** A case built from {@code valid} (field -> JSON literal), of a random kind. */
  public Case next(Map<String, String> valid) {
    Kind[] kinds = Kind.values();
    // VALID as often as all others together, so the values that must parse get checked too.
    Kind kind = random.nextBoolean() ? Kind.VALID : kinds[1 + random.nextInt(kinds.length - 1)];
    return make(kind, valid);
  }

  /** A case of the given kind built from the fields given at construction. */
  public Case next(Kind kind) {
    return make(kind, fields);
  }

  private Case make(Kind kind, Map<String, String> valid) {
    List<String> names = new ArrayList<>(valid.keySet());
    String field = names.get(random.nextInt(names.size()));
    String text = object(valid);
    return switch (kind) {
      case VALID -> new Case(kind, null, utf8(text));
      case TRUNCATED ->
          new Case(kind, null, utf8(text.substring(0, 1 + random.nextInt(text.length() - 1))));
      case BROKEN_SYNTAX -> new Case(kind, null, utf8(brokenSyntax(text)));
      case INVALID_UTF8 -> invalidUtf8(valid, field);
      case RAW_NUL -> replaced(kind, valid, field, "\"a\0b\"");
      case ESCAPED_NUL -> replaced(kind, valid, field, "\"a\\u0000b\"");
      case DEEP_NESTING -> replaced(kind, valid, field, nested(1 + random.nextInt(3000)));
      case LARGE_VALUE ->
          replaced(kind, valid, field, "\"" + "x".repeat(10_000 + random.nextInt(990_000)) + "\"");
      case NUMBER_OUT_OF_RANGE -> replaced(kind, valid, field, pick(OUT_OF_RANGE));
      case NON_JSON_NUMBER -> replaced(kind, valid, field, pick(NON_JSON_NUMBERS));
      case WRONG_TYPE -> replaced(kind, valid, field, pick(OTHER_TYPES));
      case DUPLICATE_KEY -> duplicateKey(valid, field);
      case NOT_AN_OBJECT ->
          new Case(kind, null, utf8(pick(new String[] {"[" + text + "]", "5", "\"x\"", "null"})));
      case TRAILING_CONTENT ->
          new Case(kind, null, utf8(text + pick(new String[] {" x", "}", ",{}", " " + text})));
    };
  }

  /** Each edit breaks the syntax wherever the values are (it touches only the first key). */
  private String brokenSyntax(String text) {
    return switch (random.nextInt(4)) {
      case 0 -> text.replaceFirst(":", "");
      case 1 -> text.replaceFirst(":", "::");
      case 2 -> "{," + text.substring(1);
      default -> text.replaceFirst("\"", "");
    };
  }

  private Case invalidUtf8(Map<String, String> valid, String field) {
    byte[] bad = INVALID_UTF8[random.nextInt(INVALID_UTF8.length)];
    String marker = "\u0001MARK\u0001";
    Map<String, String> copy = new LinkedHashMap<>(valid);
    copy.put(field, "\"a" + marker + "b\"");
    String text = object(copy);
    int at = text.indexOf(marker);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(utf8(text.substring(0, at)));
    out.writeBytes(bad);
    out.writeBytes(utf8(text.substring(at + marker.length())));
    return new Case(Kind.INVALID_UTF8, field, out.toByteArray());
  }

  private Case replaced(Kind kind, Map<String, String> valid, String field, String literal) {
    Map<String, String> copy = new LinkedHashMap<>(valid);
    copy.put(field, literal);
    return new Case(kind, field, utf8(object(copy)));
  }

  private Case duplicateKey(Map<String, String> valid, String field) {
    String text = object(valid);
    String other = pick(new String[] {"null", "\"other\"", "0", "true"});
    String withTwice = text.substring(0, text.length() - 1) + ",\"" + field + "\":" + other + "}";
    return new Case(Kind.DUPLICATE_KEY, field, utf8(withTwice));
  }

  private String nested(int depth) {
    StringBuilder text = new StringBuilder();
    boolean arrays = random.nextBoolean();
    for (int i = 0; i < depth; i++) {
      text.append(arrays ? "[" : "{\"n\":");
    }
    text.append('1');
    for (int i = 0; i < depth; i++) {
      text.append(arrays ? "]" : "}");
    }
    return text.toString();
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String object(Map<String, String> fields) {
    StringBuilder text = new StringBuilder("{");
    fields.forEach(
        (name, literal) -> {
          if (text.length() > 1) {
            text.append(',');
          }
          text.append('"').append(name).append("\":").append(literal);
        });
    return text.append('}').toString();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
