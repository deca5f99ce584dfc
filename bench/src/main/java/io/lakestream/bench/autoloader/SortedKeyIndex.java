package io.lakestream.bench.autoloader;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bench's stand-in for S3's own listing index: the landing files' keys in a sorted map, so a
 * {@code ListObjectsV2} page costs what it returns, as on S3, whatever the bucket holds. s3proxy's
 * filesystem-nio2 backend walks and sorts the whole bucket tree for every flat page (2.3 s per page
 * at 200K files), which made the bench measure s3proxy, not the listers.
 *
 * <p>{@link LandingFiles} records each file here once it is in place, with the size, ETag and
 * modification time s3proxy reports for it; {@link S3RequestCounter} answers the {@code
 * list-type=2} requests under {@link #root()} from it and sends every other request to s3proxy.
 * Supported parameters: {@code prefix}, {@code delimiter}, {@code max-keys} (at most 1,000), {@code
 * start-after}, {@code continuation-token}, {@code encoding-type=url}; others ({@code fetch-owner})
 * are ignored. Only objects recorded here exist for it: nothing else may be written under the root
 * while it serves listings (the bench writes nowhere else there).
 */
final class SortedKeyIndex {
  private static final DateTimeFormatter LAST_MODIFIED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final int MAX_KEYS = 1_000;

  /** One object: size in bytes, ETag (hex MD5), modification time. */
  record ObjectEntry(long size, String etag, long lastModifiedMillis) {}

  private final String bucket;
  private final String root;
  private final ConcurrentSkipListMap<String, ObjectEntry> objects = new ConcurrentSkipListMap<>();
  private final AtomicLong pages = new AtomicLong();

  /**
   * @param bucket the bucket the requests name
   * @param root the key prefix this index owns, e.g. {@code landing/}
   */
  SortedKeyIndex(String bucket, String root) {
    this.bucket = bucket;
    this.root = root.endsWith("/") ? root : root + "/";
  }

  String root() {
    return root;
  }

  /** Records an object (a key under {@link #root()}) that is now readable from s3proxy. */
  void put(String key, ObjectEntry entry) {
    if (!key.startsWith(root)) {
      throw new IllegalArgumentException(key + " is not under the index's root " + root);
    }
    objects.put(key, entry);
  }

  int size() {
    return objects.size();
  }

  /** Pages this index answered. */
  long pagesAnswered() {
    return pages.get();
  }

  /**
   * Whether this index answers a {@code GET /<bucket>?<query>}: a ListObjectsV2 of this bucket
   * whose prefix lies under the root (a listing of the root's parent goes to s3proxy).
   */
  boolean answers(String path, String query) {
    Map<String, String> params = parse(query);
    String requested = path.replaceAll("^/+|/+$", "");
    return requested.equals(bucket)
        && "2".equals(params.get("list-type"))
        && params.getOrDefault("prefix", "").startsWith(root);
  }

  /** The ListObjectsV2 XML answer to a query {@link #answers} accepted. */
  String list(String query) {
    pages.incrementAndGet();
    Map<String, String> params = parse(query);
    String prefix = params.getOrDefault("prefix", "");
    String delimiter = emptyToNull(params.get("delimiter"));
    int maxKeys = Math.min(MAX_KEYS, Integer.parseInt(params.getOrDefault("max-keys", "1000")));
    String token = emptyToNull(params.get("continuation-token"));
    String startAfter = emptyToNull(params.get("start-after"));
    String from = token != null ? decodeToken(token) : startAfter;
    Page page = page(prefix, delimiter, maxKeys, from);
    boolean url = "url".equals(params.get("encoding-type"));
    return render(params, prefix, delimiter, maxKeys, page, url);
  }

  /** Keys and common prefixes of one page, in key order, and where the next page starts. */
  record Page(List<Map.Entry<String, ObjectEntry>> contents, List<String> prefixes, String next) {}

  Page page(String prefix, String delimiter, int maxKeys, String from) {
    List<Map.Entry<String, ObjectEntry>> contents = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    Map.Entry<String, ObjectEntry> e =
        from == null || from.compareTo(prefix) < 0
            ? objects.ceilingEntry(prefix)
            : objects.higherEntry(from);
    String last = null;
    while (e != null && e.getKey().startsWith(prefix)) {
      String key = e.getKey();
      int cut = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
      String item = cut < 0 ? key : key.substring(0, cut + delimiter.length());
      if (cut >= 0 && item.equals(from)) { // the page before ended with this common prefix
        e = objects.higherEntry(item + Character.MAX_VALUE);
        continue;
      }
      if (contents.size() + prefixes.size() == maxKeys) {
        return new Page(contents, prefixes, last);
      }
      if (cut < 0) {
        contents.add(e);
        e = objects.higherEntry(key);
      } else {
        prefixes.add(item);
        e = objects.higherEntry(item + Character.MAX_VALUE);
      }
      last = item;
    }
    return new Page(contents, prefixes, null);
  }

  private String render(
      Map<String, String> params,
      String prefix,
      String delimiter,
      int maxKeys,
      Page page,
      boolean url) {
    StringBuilder xml = new StringBuilder(256 + page.contents().size() * 256);
    xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    element(xml, "Name", bucket);
    element(xml, "Prefix", value(prefix, url));
    if (params.get("start-after") != null) {
      element(xml, "StartAfter", value(params.get("start-after"), url));
    }
    if (params.get("continuation-token") != null) {
      element(xml, "ContinuationToken", params.get("continuation-token"));
    }
    element(xml, "KeyCount", Integer.toString(page.contents().size() + page.prefixes().size()));
    element(xml, "MaxKeys", Integer.toString(maxKeys));
    if (delimiter != null) {
      element(xml, "Delimiter", value(delimiter, url));
    }
    if (url) {
      element(xml, "EncodingType", "url");
    }
    element(xml, "IsTruncated", Boolean.toString(page.next() != null));
    if (page.next() != null) {
      element(xml, "NextContinuationToken", encodeToken(page.next()));
    }
    for (Map.Entry<String, ObjectEntry> c : page.contents()) {
      xml.append("<Contents>");
      element(xml, "Key", value(c.getKey(), url));
      element(
          xml,
          "LastModified",
          LAST_MODIFIED.format(Instant.ofEpochMilli(c.getValue().lastModifiedMillis())));
      element(xml, "ETag", "\"" + c.getValue().etag() + "\"");
      element(xml, "Size", Long.toString(c.getValue().size()));
      element(xml, "StorageClass", "STANDARD");
      xml.append("</Contents>");
    }
    for (String p : page.prefixes()) {
      xml.append("<CommonPrefixes>");
      element(xml, "Prefix", value(p, url));
      xml.append("</CommonPrefixes>");
    }
    return xml.append("</ListBucketResult>").toString();
  }

  private static void element(StringBuilder xml, String name, String text) {
    xml.append('<').append(name).append('>');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> xml.append("&amp;");
        case '<' -> xml.append("&lt;");
        case '>' -> xml.append("&gt;");
        case '"' -> xml.append("&quot;");
        default -> xml.append(c);
      }
    }
    xml.append("</").append(name).append('>');
  }

  private static String value(String text, boolean url) {
    return url ? URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20") : text;
  }

  private static String encodeToken(String key) {
    return Base64.getUrlEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeToken(String token) {
    return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static Map<String, String> parse(String query) {
    Map<String, String> params = new HashMap<>();
    if (query == null || query.isEmpty()) {
      return params;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String val = eq < 0 ? "" : pair.substring(eq + 1);
      params.put(
          URLDecoder.decode(name, StandardCharsets.UTF_8),
          URLDecoder.decode(val, StandardCharsets.UTF_8));
    }
    return params;
  }
}
