package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.value.StrictUtf8;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads XML files for Auto Loader ({@code cloudFiles.format=xml}) as Databricks does: every {@code
 * <rowTag>} element, wherever it is in the file, is one record. The file is scanned for the row
 * elements byte by byte (a row element inside another counts as part of it); each one is then
 * parsed on its own with the JDK's StAX parser (no DTDs, no external entities), so a record that is
 * not well-formed XML or not UTF-8, or one cut off by the end of the file, is one malformed record
 * (rescued as {@code _corrupt_record}, or {@code MALFORMED_RECORD_IN_PARSING}) and the records
 * around it are read.
 *
 * <p>A record has the row element's attributes as {@code attributePrefix + name}, its child
 * elements by name (repeated ones as a JSON array; one with children or attributes as a JSON
 * object, its text then in {@code valueTag}; an empty one as null) and its own text in {@code
 * valueTag}. All values are text, so types are recognized in text as in CSV. Namespace declarations
 * ({@code xmlns}) are not fields. The record's line number is the line its row element starts on.
 */
final class XmlRecords {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final XmlOptions options;
  private final byte[] tag;
  private final XMLInputFactory factory;

  private XmlRecords(XmlOptions options) {
    this.options = options;
    this.tag = options.rowTag().getBytes(StandardCharsets.UTF_8);
    this.factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
  }

  /** Emits every row element of {@code in}, in file order (null for a malformed one). */
  static void read(InputStream in, XmlOptions options, FileFormat.RecordConsumer consumer)
      throws IOException {
    new XmlRecords(options).records(new Bytes(in), consumer);
  }

  private void records(Bytes in, FileFormat.RecordConsumer consumer) throws IOException {
    int b;
    while ((b = in.next()) >= 0) {
      if (b == '<' && in.startsWith(COMMENT, 0)) {
        copyPast(in, new ByteArrayOutputStream(), COMMENT_END); // a row tag in it is no row
      } else if (b == '<' && in.startsWith(CDATA, 0)) {
        copyPast(in, new ByteArrayOutputStream(), CDATA_END);
      } else if (b == '<' && in.startsWith(tag, 0) && nameEnds(in.peek(tag.length))) {
        long line = in.line;
        ByteArrayOutputStream element = new ByteArrayOutputStream();
        element.write('<');
        boolean complete = element(in, element);
        emit(element.toByteArray(), complete, line, consumer);
      }
    }
  }

  private void emit(byte[] bytes, boolean complete, long line, FileFormat.RecordConsumer consumer)
      throws IOException {
    String text = new String(bytes, StandardCharsets.UTF_8);
    boolean utf8 = StrictUtf8.firstInvalidByte(bytes, 0, bytes.length, text) < 0;
    consumer.accept(complete && utf8 ? parse(text) : null, text, line);
  }

  /** Whether a byte may follow an element's name in a start tag. */
  private static boolean nameEnds(int b) {
    return b == '>' || b == '/' || Character.isWhitespace(b);
  }

  /**
   * Copies a row element, whose {@code <} was read, up to its end tag.
   *
   * @return false if the file ended first
   */
  private boolean element(Bytes in, ByteArrayOutputStream out) throws IOException {
    int state = startTag(in, out);
    if (state != OPEN) {
      return state == CLOSED;
    }
    int depth = 1;
    int b;
    while ((b = in.next()) >= 0) {
      out.write(b);
      if (b != '<') {
        continue;
      }
      if (in.startsWith(COMMENT, 0)) {
        if (!copyPast(in, out, COMMENT_END)) {
          return false;
        }
      } else if (in.startsWith(CDATA, 0)) {
        if (!copyPast(in, out, CDATA_END)) {
          return false;
        }
      } else if (in.peek(0) == '/' && in.startsWith(tag, 1) && nameEnds(in.peek(1 + tag.length))) {
        if (!copyPast(in, out, GT)) {
          return false;
        }
        if (--depth == 0) {
          return true;
        }
      } else if (in.startsWith(tag, 0) && nameEnds(in.peek(tag.length))) {
        state = startTag(in, out);
        if (state == EOF) {
          return false;
        }
        depth += state == OPEN ? 1 : 0;
      }
    }
    return false;
  }

  private static final int OPEN = 0;
  private static final int CLOSED = 1;
  private static final int EOF = 2;
  private static final byte[] COMMENT = "!--".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMENT_END = "-->".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CDATA = "![CDATA[".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CDATA_END = "]]>".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GT = {'>'};

  /** Copies a start tag up to its {@code >} (quotes respected): OPEN, CLOSED (empty) or EOF. */
  private static int startTag(Bytes in, ByteArrayOutputStream out) throws IOException {
    int quote = 0;
    int last = 0;
    int b;
    while ((b = in.next()) >= 0) {
      out.write(b);
      if (quote != 0) {
        quote = b == quote ? 0 : quote;
      } else if (b == '"' || b == '\'') {
        quote = b;
      } else if (b == '>') {
        return last == '/' ? CLOSED : OPEN;
      }
      if (!Character.isWhitespace(b)) {
        last = b;
      }
    }
    return EOF;
  }

  /** Copies up to and including {@code end}; false if the file ended first. */
  private static boolean copyPast(Bytes in, ByteArrayOutputStream out, byte[] end)
      throws IOException {
    byte[] last = new byte[end.length];
    int b;
    while ((b = in.next()) >= 0) {
      out.write(b);
      System.arraycopy(last, 1, last, 0, last.length - 1);
      last[last.length - 1] = (byte) b;
      if (java.util.Arrays.equals(last, end)) {
        return true;
      }
    }
    return false;
  }

  /** The record of one row element's text, or null if it is not well-formed XML. */
  private ObjectNode parse(String text) {
    XMLStreamReader reader = null;
    try {
      reader = factory.createXMLStreamReader(new StringReader(text));
      while (reader.next() != XMLStreamConstants.START_ELEMENT) {
        // the row element is the first element of its text
      }
      ObjectNode row = (ObjectNode) element(reader, true);
      while (reader.hasNext()) {
        reader.next(); // nothing follows the row element in its text; this checks it ended
      }
      return row;
    } catch (XMLStreamException | RuntimeException e) {
      return null;
    } finally {
      close(reader);
    }
  }

  private static void close(XMLStreamReader reader) {
    if (reader != null) {
      try {
        reader.close();
      } catch (XMLStreamException e) {
        // a reader over a string holds nothing
      }
    }
  }

  /** The value of the element the reader is at, read up to its end tag. */
  private JsonNode element(XMLStreamReader reader, boolean row) throws XMLStreamException {
    ObjectNode fields = NODES.objectNode();
    if (!options.excludeAttribute()) {
      for (int i = 0; i < reader.getAttributeCount(); i++) {
        String name = name(reader.getAttributePrefix(i), reader.getAttributeLocalName(i));
        if (!name.equals("xmlns") && !name.startsWith("xmlns:")) {
          fields.put(options.attributePrefix() + stripped(name), text(reader.getAttributeValue(i)));
        }
      }
    }
    StringBuilder text = new StringBuilder();
    while (true) {
      switch (reader.next()) {
        case XMLStreamConstants.START_ELEMENT:
          String name = stripped(name(reader.getPrefix(), reader.getLocalName()));
          add(fields, name, element(reader, false));
          break;
        case XMLStreamConstants.CHARACTERS:
        case XMLStreamConstants.CDATA:
        case XMLStreamConstants.SPACE:
          text.append(reader.getText());
          break;
        case XMLStreamConstants.END_ELEMENT:
          return value(fields, text(text.toString()), row);
        default: // comments, processing instructions
      }
    }
  }

  /** A leaf's text (null if empty), or the fields with the element's own text in valueTag. */
  private JsonNode value(ObjectNode fields, String text, boolean row) {
    if (fields.isEmpty() && !row) {
      return text.isEmpty() ? NODES.nullNode() : NODES.textNode(text);
    }
    if (!text.isBlank()) {
      fields.put(options.valueTag(), text);
    }
    return fields;
  }

  /** A repeated child element makes the field an array of its values. */
  private static void add(ObjectNode fields, String name, JsonNode value) {
    JsonNode seen = fields.get(name);
    if (seen == null) {
      fields.set(name, value);
    } else if (seen instanceof ArrayNode array) {
      array.add(value);
    } else {
      fields.putArray(name).add(seen).add(value);
    }
  }

  private String text(String text) {
    return options.ignoreSurroundingSpaces() ? text.strip() : text;
  }

  private static String name(String prefix, String local) {
    return prefix == null || prefix.isEmpty() ? local : prefix + ":" + local;
  }

  /** The name without its namespace prefix when ignoreNamespace is set. */
  private String stripped(String name) {
    return options.ignoreNamespace() ? name.substring(name.lastIndexOf(':') + 1) : name;
  }

  /** A byte stream with look-ahead, counting lines. */
  private static final class Bytes {
    private final InputStream in;
    private byte[] buffer = new byte[1 << 16];
    private int pos;
    private int limit;
    long line = 1;

    Bytes(InputStream in) {
      this.in = in;
    }

    /** The byte {@code ahead} bytes after the next one, or -1 past the end. */
    int peek(int ahead) throws IOException {
      if (pos + ahead >= limit) {
        fill(ahead + 1);
      }
      return pos + ahead < limit ? buffer[pos + ahead] & 0xff : -1;
    }

    /** The next byte, consumed, or -1 at the end. */
    int next() throws IOException {
      int b = peek(0);
      if (b >= 0) {
        pos++;
        if (b == '\n') {
          line++;
        }
      }
      return b;
    }

    boolean startsWith(byte[] bytes, int ahead) throws IOException {
      for (int i = 0; i < bytes.length; i++) {
        if (peek(ahead + i) != (bytes[i] & 0xff)) {
          return false;
        }
      }
      return true;
    }

    private void fill(int needed) throws IOException {
      System.arraycopy(buffer, pos, buffer, 0, limit - pos);
      limit -= pos;
      pos = 0;
      while (limit < needed) {
        int n = in.read(buffer, limit, buffer.length - limit);
        if (n < 0) {
          return;
        }
        limit += n;
      }
    }
  }
}
