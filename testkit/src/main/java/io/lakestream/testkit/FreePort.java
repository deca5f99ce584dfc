package io.lakestream.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * A TCP port on 127.0.0.1 that was free when it was picked.
 *
 * <p>The port is found by binding a server socket to port 0 and closing it again, so another
 * process can take it before the caller binds it. Callers that start a server on it should retry
 * with a new port when the bind fails.
 */
public final class FreePort {

  /** The address every test service binds to. */
  public static final String LOOPBACK = "127.0.0.1";

  private FreePort() {}

  /**
   * Picks a port that is free on 127.0.0.1 at the time of the call.
   *
   * @throws UncheckedIOException if no server socket can be bound on 127.0.0.1
   */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0), 1);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind any free port on " + LOOPBACK, e);
    }
  }
}
