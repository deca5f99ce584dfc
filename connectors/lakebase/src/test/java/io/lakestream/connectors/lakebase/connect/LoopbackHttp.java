package io.lakestream.connectors.lakebase.connect;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A JDK HTTP server on 127.0.0.1 answering every request with {@code handler}; records requests.
 */
public final class LoopbackHttp implements AutoCloseable {
  /** A request as received. */
  public record Request(
      String method, String path, String authorization, String contentType, String body) {}

  /** An answer. */
  public record Answer(int status, String json) {}

  public final List<Request> requests = new CopyOnWriteArrayList<>();
  private final HttpServer server;

  public LoopbackHttp(Function<Request, Answer> handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          Request request = read(exchange);
          requests.add(request);
          Answer answer = handler.apply(request);
          byte[] body = answer.json().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(answer.status(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  private static Request read(HttpExchange exchange) throws IOException {
    return new Request(
        exchange.getRequestMethod(),
        exchange.getRequestURI().getPath(),
        exchange.getRequestHeaders().getFirst("Authorization"),
        exchange.getRequestHeaders().getFirst("Content-Type"),
        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
