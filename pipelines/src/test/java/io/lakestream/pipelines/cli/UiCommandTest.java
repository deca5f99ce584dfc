package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.QueryMetadata;
import io.lakestream.state.query.SinkKind;
import io.lakestream.state.query.SinkSpec;
import io.lakestream.state.query.SourceSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lakestream ui --checkpoints DIR}: serves the queries found under DIR on the URL it prints,
 * their reports without secrets, with the page's content security policy; a taken port is a usage
 * error naming --port. (The page itself is tested in a browser by the runtime's QueryPageITCase.)
 */
class UiCommandTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void servesTheQueriesUnderTheGivenDirectoryOnThePrintedUrl() throws Exception {
    CheckpointLocation location = new CheckpointLocation(dir.resolve("app/orders").toUri());
    location.writeMetadata(
        new QueryMetadata(
            QueryMetadata.FORMAT_VERSION,
            "q-1",
            "orders_bronze",
            "2026-01-01T00:00:00Z",
            "run-1",
            new QueryFingerprint(
                List.of(new SourceSpec("orders", "kafka", "orders")),
                List.of(),
                List.of(new SinkSpec("out", SinkKind.DELTA, "file:///lake/orders")),
                "rocksdb",
                128)));
    location
        .epochs()
        .writeProgress(
            7,
            Map.of(
                "id",
                "q-1",
                "runId",
                "run-1",
                "batchId",
                7,
                "sink",
                Map.of(
                    "description", "jdbc:postgresql://app:hunter2@db/x",
                    "password", "hunter2")));
    UiCommand command = new UiCommand();
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(command).setOut(new PrintWriter(out, true));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(() -> cli.execute("--checkpoints", dir.toString()));
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (command.page == null) {
        assertThat(exit).isNotDone();
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.sleep(20);
      }
      String url = command.page.url();
      assertThat(out.toString()).contains("Query page: " + url);
      HttpResponse<String> list = get(url + "api/queries");
      assertThat(list.body())
          .contains("\"name\":\"orders_bronze\"")
          .contains("\"batchId\":7")
          .contains("\"active\":false")
          .contains("app:<redacted>@db")
          .doesNotContain("hunter2");
      HttpResponse<String> page = get(url);
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
          .contains("default-src 'none'")
          .contains("connect-src 'self'");
      assertThat(get(url + "api/query?key=000000000000").statusCode()).isEqualTo(404);
      assertThat(statusWithHost(command.page.url(), "attacker.example"))
          .as("a page of another site reaching 127.0.0.1 through DNS rebinding")
          .isEqualTo(403);
      assertThat(statusWithHost(command.page.url(), "127.0.0.1")).isEqualTo(200);
    } finally {
      command.stop.countDown();
    }
    assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void aTakenPortIsAUsageErrorNamingPort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int code =
          LakestreamCli.execute(
              "ui",
              "--checkpoints",
              dir.toString(),
              "--port",
              String.valueOf(taken.getLocalPort()));
      assertThat(code).isEqualTo(2);
    }
  }

  /** The status of {@code GET /api/queries} sent with {@code Host: host} (a raw request). */
  private static int statusWithHost(String url, String host) throws Exception {
    URI uri = URI.create(url);
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("GET /api/queries HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      String status =
          new BufferedReader(
                  new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();
      return Integer.parseInt(status.split(" ")[1]);
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
