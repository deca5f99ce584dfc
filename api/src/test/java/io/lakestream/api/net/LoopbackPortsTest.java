package io.lakestream.api.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ports come from below Linux's ephemeral range (read here independently, as a stream: /proc files
 * report size 0), are free, and reserved ones are distinct while held.
 */
class LoopbackPortsTest {
  private static int ephemeralFrom() throws Exception {
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    assumeTrue(Files.exists(range), "Linux only");
    try (InputStream in = Files.newInputStream(range)) {
      String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      int from = Integer.parseInt(text.split("\\s+")[0]);
      assumeTrue(from - LoopbackPorts.FROM > 1_000, "room below the ephemeral range");
      return from;
    }
  }

  @Test
  void reservedPortsAreBelowTheEphemeralRangeAndDistinctWhileHeld() throws Exception {
    int ephemeralFrom = ephemeralFrom();
    assertThat(LoopbackPorts.ephemeralPortsFrom()).isEqualTo(ephemeralFrom);
    Set<Integer> ports = new HashSet<>();
    try (ServerSocket a = LoopbackPorts.reserve();
        ServerSocket b = LoopbackPorts.reserve();
        ServerSocket c = LoopbackPorts.reserve()) {
      for (ServerSocket s : new ServerSocket[] {a, b, c}) {
        assertThat(s.getLocalPort()).isBetween(LoopbackPorts.FROM, ephemeralFrom - 1);
        assertThat(s.getInetAddress().isLoopbackAddress()).isTrue();
        ports.add(s.getLocalPort());
      }
    }
    assertThat(ports).hasSize(3);
  }

  @Test
  void aPickedPortIsBelowTheRangeAndCanBeBound() throws Exception {
    int ephemeralFrom = ephemeralFrom();
    int port = LoopbackPorts.pick();
    assertThat(port).isBetween(LoopbackPorts.FROM, ephemeralFrom - 1);
    try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      assertThat(server.getLocalPort()).isEqualTo(port);
    }
  }
}
