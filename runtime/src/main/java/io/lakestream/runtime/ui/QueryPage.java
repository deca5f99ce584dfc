package io.lakestream.runtime.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.lakestream.api.annotation.Internal;
import io.lakestream.state.checkpoint.CheckpointLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The query page (Spark's Streaming tab) served on {@code http://127.0.0.1:<port>/}: the queries
 * found under the watched checkpoint locations ({@link #watch}), running or finished, and per query
 * the charts of its {@code progress/N} reports over epochs, its latest report, ids, trigger,
 * location and restart-matrix fingerprint. The page polls {@code /api/query?key=} and redraws while
 * the query runs.
 *
 * <p>Guarantees: binds the loopback address only; answers only requests whose {@code Host} is the
 * loopback address (no DNS rebinding); serves its own static files with a content security policy
 * that lets the browser fetch nothing from elsewhere; shows no secret ({@link Redaction}); never
 * writes to a checkpoint location. Its threads are daemons: an open page does not keep the JVM
 * alive. A location that cannot be read is left out of the list, and its page answers 404.
 *
 * <p>Thread-safe.
 */
@Internal
public final class QueryPage implements AutoCloseable {
  private static final String RESOURCES = "/io/lakestream/runtime/ui/";
  private static final Map<String, String> STATIC =
      Map.of(
          "/", "index.html",
          "/page.js", "page.js",
          "/charts.js", "charts.js",
          "/page.css", "page.css");
  private static final String POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'"
          + " data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final ObjectMapper mapper = new ObjectMapper();
  private final QueryLocations locations = new QueryLocations();
  private final QueryView views = new QueryView(mapper);
  private final Map<String, LiveRun> live = new ConcurrentHashMap<>();
  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * A run this JVM started: what its checkpoint location does not record.
   *
   * @param location the run's checkpoint location
   * @param runId the run's id
   * @param appId the query's app id
   * @param trigger the trigger, for people (e.g. {@code processingTime=300ms})
   * @param active whether the run is still going
   */
  public record LiveRun(
      URI location, String runId, String appId, String trigger, BooleanSupplier active) {}

  private QueryPage(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Serves the page on 127.0.0.1:{@code port} (0: any free port) for {@code checkpoints}.
   *
   * @throws IOException if the port cannot be bound (in use: choose another, or 0)
   */
  public static QueryPage start(int port, List<URI> checkpoints) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    ExecutorService executor =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "lakestream-query-page");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    QueryPage page = new QueryPage(server, executor);
    checkpoints.forEach(page::watch);
    server.createContext("/", page::handle);
    startAsDaemon(server);
    return page;
  }

  /** The server's dispatcher thread is a daemon only if started from one (it inherits it). */
  private static void startAsDaemon(HttpServer server) {
    Thread starter = new Thread(server::start, "lakestream-query-page-start");
    starter.setDaemon(true);
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the query page", e);
    }
  }

  /** Adds a checkpoint location, or a directory of them, to the page's list. */
  public void watch(URI checkpoints) {
    locations.watch(checkpoints);
  }

  /** Tells the page of a run this JVM started (watching its location). */
  public void running(LiveRun run) {
    watch(run.location());
    live.put(QueryLocations.key(run.location()), run);
  }

  /** The id of {@code location} in the page's addresses: {@code url() + "#q=" + key}. */
  public static String key(URI location) {
    return QueryLocations.key(location);
  }

  /** The page's address: {@code http://127.0.0.1:<port>/}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  /** Stops serving. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      String path = exchange.getRequestURI().getPath();
      if (!fromLoopback(exchange)) {
        send(
            exchange, 403, "text/plain", "only 127.0.0.1 may ask".getBytes(StandardCharsets.UTF_8));
      } else if (!"GET".equals(exchange.getRequestMethod())) {
        send(exchange, 405, "text/plain", "GET only".getBytes(StandardCharsets.UTF_8));
      } else if (STATIC.containsKey(path)) {
        serveStatic(exchange, STATIC.get(path));
      } else if (path.equals("/api/queries")) {
        sendJson(exchange, queries());
      } else if (path.equals("/api/query")) {
        serveQuery(exchange, parameter(exchange, "key"));
      } else {
        send(exchange, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException | RuntimeException e) {
      byte[] text =
          ("cannot read: " + Redaction.redact(String.valueOf(e.getMessage())))
              .getBytes(StandardCharsets.UTF_8);
      send(exchange, 500, "text/plain", text);
    } finally {
      exchange.close();
    }
  }

  /** The list: per location its header and latest report. */
  private ObjectNode queries() {
    ObjectNode out = mapper.createObjectNode();
    ArrayNode list = out.putArray("queries");
    for (Map.Entry<String, CheckpointLocation> e : locations.find().entrySet()) {
      try {
        list.add(views.summary(e.getKey(), e.getValue(), live.get(e.getKey())));
      } catch (IOException | RuntimeException unreadable) {
        // left out: a location being created, or damaged
      }
    }
    return out;
  }

  private void serveQuery(HttpExchange exchange, String key) throws IOException {
    CheckpointLocation location = key == null ? null : locations.byKey(key);
    if (location == null) {
      send(exchange, 404, "text/plain", "no such query".getBytes(StandardCharsets.UTF_8));
      return;
    }
    sendJson(exchange, views.detail(key, location, live.get(key)));
  }

  private static boolean fromLoopback(HttpExchange exchange) {
    String host = String.valueOf(exchange.getRequestHeaders().getFirst("Host"));
    String name = host.replaceAll(":\\d+$", "");
    return exchange.getRemoteAddress().getAddress().isLoopbackAddress()
        && (name.equals("127.0.0.1") || name.equals("localhost") || name.equals("[::1]"));
  }

  private static String parameter(HttpExchange exchange, String name) {
    String query = exchange.getRequestURI().getQuery();
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      if (pair.startsWith(name + "=")) {
        return pair.substring(name.length() + 1);
      }
    }
    return null;
  }

  private static void serveStatic(HttpExchange exchange, String file) throws IOException {
    byte[] body;
    try (InputStream in = QueryPage.class.getResourceAsStream(RESOURCES + file)) {
      if (in == null) {
        throw new UncheckedIOException(new IOException("missing resource " + file));
      }
      body = in.readAllBytes();
    }
    String type =
        file.endsWith(".html")
            ? "text/html"
            : file.endsWith(".js") ? "text/javascript" : "text/css";
    send(exchange, 200, type + "; charset=utf-8", body);
  }

  private void sendJson(HttpExchange exchange, Object json) throws IOException {
    send(exchange, 200, "application/json", mapper.writeValueAsBytes(json));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("Content-Security-Policy", POLICY);
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
