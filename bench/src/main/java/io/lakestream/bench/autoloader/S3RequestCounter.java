package io.lakestream.bench.autoloader;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counting HTTP proxy in front of the S3 server: every client (S3A for Auto Loader, the Flink S3
 * file system for FileSource) is pointed at {@link #endpoint()}, so LIST requests are counted the
 * same way for every side, on the wire, whatever the client library reports about itself.
 *
 * <p>Each request head is parsed (request line, {@code Content-Length}); a request is a LIST when
 * it is a {@code GET} of the bucket itself ({@code /bucket?list-type=2...} or {@code
 * /bucket/?...}), a HEAD when its method is {@code HEAD}, a GET when it is a {@code GET} of an
 * object. Responses are passed through unparsed. A chunked request body is not supported: the
 * connection is closed and {@link #unparsed()} counts it (the bench fails then, so a miscount
 * cannot go unnoticed).
 *
 * <p>With a {@link SortedKeyIndex}, the proxy answers the ListObjectsV2 requests the index covers
 * itself (counted as LISTs all the same) instead of s3proxy; clients send one request at a time per
 * connection and wait for its answer, so the answer cannot interleave with a response from s3proxy.
 */
final class S3RequestCounter implements AutoCloseable {
  private final URI target;
  private final ServerSocket server;
  private final ExecutorService pool = Executors.newCachedThreadPool(daemon());
  private final AtomicLong lists = new AtomicLong();
  private final AtomicLong heads = new AtomicLong();
  private final AtomicLong gets = new AtomicLong();
  private final AtomicLong others = new AtomicLong();
  private final AtomicLong unparsed = new AtomicLong();
  private final SortedKeyIndex index;
  private volatile boolean closed;

  /** Starts a proxy on 127.0.0.1 (random port) forwarding to {@code target} (http://host:port). */
  S3RequestCounter(URI target) throws IOException {
    this(target, null);
  }

  /** As {@link #S3RequestCounter(URI)}, answering the LISTs {@code index} covers from it. */
  S3RequestCounter(URI target, SortedKeyIndex index) throws IOException {
    this.target = target;
    this.index = index;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    pool.submit(this::accept);
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "s3-request-counter");
      t.setDaemon(true);
      return t;
    };
  }

  /** The proxy's endpoint, {@code http://127.0.0.1:<port>}. */
  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** The index answering LISTs, or null when s3proxy answers them. */
  SortedKeyIndex index() {
    return index;
  }

  long lists() {
    return lists.get();
  }

  long heads() {
    return heads.get();
  }

  long gets() {
    return gets.get();
  }

  long others() {
    return others.get();
  }

  long unparsed() {
    return unparsed.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(target.getHost(), target.getPort());
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        pool.submit(() -> requests(client, upstream));
        pool.submit(() -> pump(upstream, client));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("s3-request-counter: " + e);
        }
      }
    }
  }

  /** Client to server: one request head at a time, counted, then its body. */
  private void requests(Socket client, Socket upstream) {
    try (client;
        upstream) {
      InputStream in = new java.io.BufferedInputStream(client.getInputStream(), 65536);
      OutputStream out = upstream.getOutputStream();
      while (true) {
        byte[] head = readHead(in);
        if (head == null) {
          return;
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        RequestLine request = RequestLine.parse(text.substring(0, text.indexOf('\r')));
        count(request);
        if (answerFromIndex(request, client)) {
          continue;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.contains("\r\ntransfer-encoding:")) {
          unparsed.incrementAndGet();
          return;
        }
        out.write(head);
        out.flush();
        long length = contentLength(lower);
        byte[] buffer = new byte[8192];
        while (length > 0) {
          int n = in.read(buffer, 0, (int) Math.min(buffer.length, length));
          if (n < 0) {
            return;
          }
          out.write(buffer, 0, n);
          length -= n;
        }
        out.flush();
      }
    } catch (IOException e) {
      // connection closed by either side
    }
  }

  /**
   * An HTTP request line split once: the method, the path, and the query string (empty when the
   * target has none).
   */
  private record RequestLine(String method, String path, String query, boolean hasQuery) {
    static RequestLine parse(String line) {
      String[] parts = line.split(" ");
      String target = parts.length > 1 ? parts[1] : "";
      int q = target.indexOf('?');
      return q < 0
          ? new RequestLine(parts[0], target, "", false)
          : new RequestLine(parts[0], target.substring(0, q), target.substring(q + 1), true);
    }

    /** A request on the bucket itself (no object key): a LIST when it is a GET with a query. */
    boolean bucketOnly() {
      return path.replaceAll("^/+|/+$", "").indexOf('/') < 0;
    }
  }

  /** Answers a LIST the index covers; false for every other request. */
  private boolean answerFromIndex(RequestLine request, Socket client) throws IOException {
    if (index == null
        || !request.method().equals("GET")
        || !request.hasQuery()
        || !index.answers(request.path(), request.query())) {
      return false;
    }
    byte[] body = index.list(request.query()).getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: "
            + body.length
            + "\r\nx-amz-request-id: bench-index\r\n\r\n";
    synchronized (client) {
      OutputStream out = client.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
    }
    return true;
  }

  private void count(RequestLine request) {
    boolean get = request.method().equals("GET");
    if (get && request.bucketOnly() && request.hasQuery()) {
      lists.incrementAndGet();
    } else if (request.method().equals("HEAD")) {
      heads.incrementAndGet();
    } else if (get) {
      gets.incrementAndGet();
    } else {
      others.incrementAndGet();
    }
  }

  private static long contentLength(String lowerHead) {
    int at = lowerHead.indexOf("\r\ncontent-length:");
    if (at < 0) {
      return 0;
    }
    int start = at + "\r\ncontent-length:".length();
    int end = lowerHead.indexOf('\r', start);
    return Long.parseLong(lowerHead.substring(start, end).trim());
  }

  /** The bytes up to and including the blank line, or null at the end of the stream. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(512);
    int matched = 0;
    while (true) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
      if (matched == 4) {
        return head.toByteArray();
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[65536];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        synchronized (to) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // connection closed by either side
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    pool.shutdownNow();
  }
}
