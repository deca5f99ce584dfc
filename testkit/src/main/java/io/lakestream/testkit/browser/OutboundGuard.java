package io.lakestream.testkit.browser;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A proxy on 127.0.0.1 that forwards nothing: the browser is told to send every request through it,
 * except to loopback addresses (which chromium always connects to directly), so every request that
 * would leave the machine arrives here instead. Records each one's request line ({@code GET
 * http://host/...}, {@code CONNECT host:443}; an empty line for a connection that sent nothing) and
 * answers 403.
 *
 * <p>Thread-safe.
 */
public final class OutboundGuard implements AutoCloseable {
  private final ServerSocket server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  /** Starts listening on a free loopback port. */
  public OutboundGuard() {
    try {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a loopback port for the outbound guard", e);
    }
    Thread accept = new Thread(this::acceptAll, "outbound-guard");
    accept.setDaemon(true);
    accept.start();
  }

  /** The proxy address for chromium's {@code --proxy-server}. */
  public String proxy() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The request lines caught so far: requests that would have left loopback. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  private void acceptAll() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        Thread answer = new Thread(() -> answer(socket), "outbound-guard-connection");
        answer.setDaemon(true);
        answer.start();
      } catch (IOException e) {
        if (!server.isClosed()) {
          requests.add("(accept failed: " + e.getMessage() + ")");
        }
      }
    }
  }

  /**
   * Records the request line and answers 403; a connection that sends nothing within 2 s (a
   * browser's preconnect) is recorded as an empty line: nothing left the machine through it.
   */
  private void answer(Socket connection) {
    try (Socket socket = connection) {
      socket.setSoTimeout(2_000);
      String line;
      try {
        line = firstLine(socket.getInputStream());
      } catch (SocketTimeoutException idle) {
        line = "";
      }
      requests.add(line);
      OutputStream out = socket.getOutputStream();
      out.write(
          "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
    } catch (IOException e) {
      requests.add("(unreadable request: " + e.getMessage() + ")");
    }
  }

  private static String firstLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1 && b != '\n' && line.size() < 4096; b = in.read()) {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
