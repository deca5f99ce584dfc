package io.lakestream.api.net;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports on the loopback address for servers that bind them later (the embedded Flink REST API
 * and metrics endpoint, the test kit's services), picked below the kernel's ephemeral port range
 * where that leaves room: a port from the ephemeral range (what binding port 0 gives) may, by the
 * time the server binds it, be the local end of some process's outgoing connection, and the server
 * then fails to start. Below the range no outgoing connection takes a port, so only another server
 * (another caller picking the same port) can. Where the range is unknown (not Linux) or no port
 * below it is free, falls back to port 0.
 */
@Internal
public final class LoopbackPorts {
  /** The lowest port picked (above the registered ports most local services use). */
  static final int FROM = 20_000;

  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  private LoopbackPorts() {}

  /**
   * A port free now, held by the returned socket (bound without SO_REUSEADDR) until the caller
   * closes it: hold it while picking others, so no two picks give the same port.
   *
   * @throws IOException when no port at all can be bound on the loopback address
   */
  public static ServerSocket reserve() throws IOException {
    int below = ephemeralPortsFrom();
    for (int i = 0; i < 50 && below - FROM > 1_000; i++) {
      int port = FROM + ThreadLocalRandom.current().nextInt(below - FROM);
      try {
        return bound(port);
      } catch (IOException taken) {
        // try another
      }
    }
    return bound(0);
  }

  /**
   * A port free at the time of the call, released again: the caller binds it (and retries with a
   * new port when that fails, as another server may take it meanwhile).
   *
   * @throws UncheckedIOException when no port at all can be bound on the loopback address
   */
  public static int pick() {
    try (ServerSocket socket = reserve()) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind any free port on the loopback address", e);
    }
  }

  private static ServerSocket bound(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /** The first port of Linux's ephemeral range, or 0 where it cannot be read. */
  static int ephemeralPortsFrom() {
    // read as a stream: /proc files report size 0, and Files.readString then reads one byte
    try (InputStream in = Files.newInputStream(RANGE)) {
      String range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
