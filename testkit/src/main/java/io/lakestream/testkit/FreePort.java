package io.lakestream.testkit;

import io.lakestream.api.net.LoopbackPorts;
import java.io.UncheckedIOException;

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
}
