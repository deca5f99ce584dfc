package io.lakestream.testkit;

import io.lakestream.api.net.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * A TCP port on 127.0.0.1 that was free when it was picked, from below the kernel's ephemeral range
 * where there is room ({@link LoopbackPorts}, which the runtime's embedded servers use too), so an
 * outgoing connection does not take it before the service binds it.
 *
 * <p>The port is released again before the caller binds it, so another server can take it
 * meanwhile. Callers that start a server on it should retry with a new port when the bind fails.
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
    return LoopbackPorts.pick();
  }

  /**
   * Whether a server accepts connections on 127.0.0.1:{@code port}: a connect that succeeds within
   * {@code timeout} (the connection is closed at once).
   */
  public static boolean accepts(int port, Duration timeout) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), (int) timeout.toMillis());
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
