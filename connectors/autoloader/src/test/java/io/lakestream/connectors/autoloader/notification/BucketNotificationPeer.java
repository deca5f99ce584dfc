package io.lakestream.connectors.autoloader.notification;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for S3's bucket notification API, which the test S3 server (S3Proxy) does not
 * implement: S3's REST protocol for {@code GET} and {@code PUT /<bucket>?notification} (path style,
 * the XML body kept as sent) on 127.0.0.1; any other request is answered 501 as S3Proxy would.
 */
public final class BucketNotificationPeer implements AutoCloseable {
  private static final String EMPTY =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
          + "<NotificationConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
          + "</NotificationConfiguration>";

  private final HttpServer server;
  private final Map<String, String> configurations = new ConcurrentHashMap<>();

  public BucketNotificationPeer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The bucket's notification configuration as last put (S3's empty one before). */
  public String configuration(String bucket) {
    return configurations.getOrDefault(bucket, EMPTY);
  }

  public void put(String bucket, String xml) {
    configurations.put(bucket, xml);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String bucket = exchange.getRequestURI().getPath().replaceAll("^/+|/+$", "");
    byte[] body = exchange.getRequestBody().readAllBytes();
    if (query == null || !query.startsWith("notification") || bucket.contains("/")) {
      respond(exchange, 501, "<Error><Code>NotImplemented</Code></Error>");
    } else if (exchange.getRequestMethod().equals("GET")) {
      respond(exchange, 200, configuration(bucket));
    } else if (exchange.getRequestMethod().equals("PUT")) {
      configurations.put(bucket, new String(body, StandardCharsets.UTF_8));
      respond(exchange, 200, "");
    } else {
      respond(exchange, 405, "<Error><Code>MethodNotAllowed</Code></Error>");
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
