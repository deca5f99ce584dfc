package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * A running kinesalite (a Kinesis Data Streams implementation on npm) on 127.0.0.1, serving HTTP
 * with streams in memory and no delays for creating or resharding streams. {@link #start} installs
 * it on first use with {@code npm install} into {@code ~/.cache/lakestream/kinesalite-3.3.3}
 * (override with the environment variable {@code LAKESTREAM_KINESALITE_DIR}), then runs {@code node
 * cli.js}; {@link #close()} stops it. Installs Debian's {@code nodejs} and {@code npm} when {@code
 * node} or {@code npm} is not on the PATH; the SDK needs CBOR off ({@code aws.cborEnabled=false}),
 * which {@link #start} sets.
 */
public final class Kinesalite implements AutoCloseable {
  /** The kinesalite version installed. */
  public static final String VERSION = "3.3.3";

  private static final NodePackage PACKAGE =
      new NodePackage(
          "kinesalite",
          VERSION,
          "cli.js",
          "LAKESTREAM_KINESALITE_DIR",
          "kinesalite, the Kinesis implementation of the tests");

  /**
   * Preloaded into node: kinesalite throws, and so exits, when a client aborts a request (error
   * "aborted", ECONNRESET), as a Kinesis reader cancelled in the middle of a GetRecords call does
   * (a task failure, a job cancelled); such errors are logged and it keeps serving. Any other
   * uncaught error still ends it.
   */
  private static final String SURVIVE_ABORTS_JS =
      """
      process.on('uncaughtException', (err) => {
        if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
          console.error('a client aborted a request (' + err.message + '); serving on');
          return;
        }
        console.error(err);
        process.exit(1);
      });
      """;

  private final Process process;
  private final OrphanReaper reaper;
  private final int port;
  private KinesisClient client;

  private Kinesalite(Process process, OrphanReaper reaper, int port) {
    this.process = process;
    this.reaper = reaper;
    this.port = port;
  }

  /**
   * Installs kinesalite if needed and starts it on a free port.
   *
   * @throws IOException when npm or node fail, naming the log to read
   */
  public static Kinesalite start() throws IOException, InterruptedException {
    PACKAGE.ensureNode();
    System.setProperty("aws.cborEnabled", "false");
    Path cli = PACKAGE.install();
    int port = FreePort.pick();
    Path log = Files.createTempFile("kinesalite-", ".log");
    Path preload = Files.createTempFile("kinesalite-survive-aborts-", ".js");
    Files.writeString(preload, SURVIVE_ABORTS_JS);
    preload.toFile().deleteOnExit();
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    "node",
                    "--require",
                    preload.toString(),
                    cli.toString(),
                    "--port",
                    Integer.toString(port),
                    "--createStreamMs",
                    "0",
                    "--deleteStreamMs",
                    "0",
                    "--updateStreamMs",
                    "0",
                    "--shardLimit",
                    "100"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process process = PACKAGE.start(builder, "node");
    Kinesalite kinesalite = new Kinesalite(process, OrphanReaper.watch(process.pid(), log), port);
    try {
      PACKAGE.awaitListening(process, port, Duration.ofSeconds(30), log);
    } catch (IOException e) {
      kinesalite.close();
      throw e;
    }
    return kinesalite;
  }

  /** The endpoint for the SDK's endpointOverride, e.g. {@code http://127.0.0.1:4567}. */
  public URI endpoint() {
    return URI.create("http://" + FreePort.LOOPBACK + ":" + port);
  }

  /**
   * A Kinesis client of this kinesalite ({@link KinesisTestClient}), made on first use and closed
   * with it: callers do not close it.
   */
  public synchronized KinesisClient client() {
    if (client == null) {
      client = KinesisTestClient.create(endpoint(), null);
    }
    return client;
  }

  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      if (client != null) {
        client.close();
      }
    }
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    reaper.close();
  }
}
