package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * A running kinesis-mock (the npm package {@code kinesis-local}, a Kinesis Data Streams mock that,
 * unlike kinesalite, implements RegisterStreamConsumer and SubscribeToShard) on 127.0.0.1, serving
 * HTTPS (HTTP/1.1 and HTTP/2 with ALPN) with a certificate for 127.0.0.1 made on first use
 * (keytool), streams in memory and no delays for creating streams, resharding or registering
 * consumers. Its servers bind to every interface by default; a preloaded script makes them listen
 * on 127.0.0.1 only. {@link #start} installs it on first use with {@code npm install} into {@code
 * ~/.cache/lakestream/kinesis-local-0.6.2} (override with the environment variable {@code
 * LAKESTREAM_KINESIS_MOCK_DIR}); {@link #close()} stops it. The SDK's clients trust the certificate
 * once {@link #trustInThisJvm()} pointed the JVM's trust store to {@link #trustStore()} (tests
 * only). Events of a closed shard's subscription carry no child shards in this version: a reshard
 * cannot be observed through SubscribeToShard.
 */
public final class KinesisMock implements AutoCloseable {
  /** The kinesis-local version installed. */
  public static final String VERSION = "0.6.2";

  private static final NodePackage PACKAGE =
      new NodePackage(
          "kinesis-local",
          VERSION,
          "main.js",
          "LAKESTREAM_KINESIS_MOCK_DIR",
          "kinesis-mock, the Kinesis implementation of the efo tests");

  private static final String PASSWORD = "kinesis-mock";
  private static final String LOOPBACK_JS =
      """
      const net = require('net');
      const listen = net.Server.prototype.listen;
      net.Server.prototype.listen = function (...args) {
        if (args.length > 0 && typeof args[0] === 'object' && args[0] !== null) {
          args[0] = Object.assign({}, args[0], { host: '127.0.0.1' });
        } else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
          if (typeof args[1] === 'string') args[1] = '127.0.0.1';
          else args.splice(1, 0, '127.0.0.1');
        }
        return listen.apply(this, args);
      };
      """;

  private final Process process;
  private final OrphanReaper reaper;
  private final int port;
  private final Path trustStore;
  private final Path dir;
  private KinesisClient client;

  private KinesisMock(Process process, OrphanReaper reaper, int port, Path trustStore, Path dir) {
    this.process = process;
    this.reaper = reaper;
    this.port = port;
    this.trustStore = trustStore;
    this.dir = dir;
  }

  /**
   * Installs kinesis-local if needed and starts it on free ports.
   *
   * @throws IOException when npm, node or keytool fail, naming the log to read
   */
  public static KinesisMock start() throws IOException, InterruptedException {
    PACKAGE.ensureNode();
    Path main = PACKAGE.install();
    Path trustStore = certificate(main.getParent().getParent().getParent().resolve("tls"));
    Path dir = Files.createTempDirectory("kinesis-mock-");
    Path preload = dir.resolve("loopback.js");
    Files.writeString(preload, LOOPBACK_JS);
    int port = FreePort.pick();
    int plainPort = FreePort.pick();
    Path log = dir.resolve("kinesis-mock.log");
    ProcessBuilder builder =
        new ProcessBuilder(List.of("node", "--require", preload.toString(), main.toString()))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("KINESIS_MOCK_TLS_PORT", Integer.toString(port));
    env.put("KINESIS_MOCK_PLAIN_PORT", Integer.toString(plainPort));
    env.put("KINESIS_MOCK_CERT_PATH", trustStore.resolveSibling("server.json").toString());
    env.put("LOG_LEVEL", "WARN");
    env.put("SHOULD_PERSIST_DATA", "false");
    for (String delay :
        List.of(
            "CREATE_STREAM",
            "DELETE_STREAM",
            "REGISTER_STREAM_CONSUMER",
            "DEREGISTER_STREAM_CONSUMER",
            "MERGE_SHARDS",
            "SPLIT_SHARD",
            "UPDATE_SHARD_COUNT")) {
      env.put(delay + "_DURATION", "0ms");
    }
    Process process = PACKAGE.start(builder, "node");
    KinesisMock mock =
        new KinesisMock(process, OrphanReaper.watch(process.pid(), log), port, trustStore, dir);
    try {
      PACKAGE.awaitListening(process, port, Duration.ofSeconds(60), log);
    } catch (IOException e) {
      mock.close();
      throw e;
    }
    return mock;
  }

  /** The HTTPS endpoint for the SDK's endpointOverride, e.g. {@code https://127.0.0.1:4567}. */
  public URI endpoint() {
    return URI.create("https://" + FreePort.LOOPBACK + ":" + port);
  }

  /** A PKCS12 trust store (password {@code kinesis-mock}) holding the server's certificate. */
  public Path trustStore() {
    return trustStore;
  }

  /**
   * Points this JVM's default trust store (javax.net.ssl.trustStore, read by the SDK's HTTP
   * clients) to {@link #trustStore()} until the returned handle is closed, which restores the
   * previous settings. For tests only: other TLS peers are not trusted meanwhile.
   */
  public AutoCloseable trustInThisJvm() {
    Map<String, String> previous = new HashMap<>();
    Map<String, String> set =
        Map.of(
            "javax.net.ssl.trustStore",
            trustStore.toString(),
            "javax.net.ssl.trustStorePassword",
            PASSWORD,
            "javax.net.ssl.trustStoreType",
            "PKCS12");
    set.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
    return () ->
        previous.forEach(
            (key, value) -> {
              if (value == null) {
                System.clearProperty(key);
              } else {
                System.setProperty(key, value);
              }
            });
  }

  /**
   * A key and certificate for 127.0.0.1 in {@code tls/server.json} and the trust store {@code
   * tls/trust.p12}, made once (EC, valid ten years) beside the installed package.
   */
  private static synchronized Path certificate(Path tls) throws IOException, InterruptedException {
    Path trustStore = tls.resolve("trust.p12");
    if (Files.exists(trustStore)) {
      return trustStore;
    }
    Path dir = Files.createTempDirectory(tls.getParent(), "tls-");
    Path keyStore = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Path log = dir.resolve("keytool.log");
    Process process =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "EC",
                    "-validity",
                    "3650",
                    "-dname",
                    "CN=127.0.0.1",
                    "-ext",
                    "SAN=ip:127.0.0.1,dns:localhost",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    keyStore.toString(),
                    "-storepass",
                    PASSWORD))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool could not make the kinesis-mock certificate; see " + log);
    }
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore)) {
        keys.load(in, PASSWORD.toCharArray());
      }
      PrivateKey key = (PrivateKey) keys.getKey("server", PASSWORD.toCharArray());
      Certificate cert = keys.getCertificate("server");
      Files.writeString(
          dir.resolve("server.json"),
          "{\"server\":{\"key\":\""
              + pem("PRIVATE KEY", key.getEncoded())
              + "\",\"cert\":\""
              + pem("CERTIFICATE", cert.getEncoded())
              + "\"}}",
          StandardCharsets.US_ASCII);
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("kinesis-mock", cert);
      try (OutputStream out = Files.newOutputStream(dir.resolve("trust.p12"))) {
        trust.store(out, PASSWORD.toCharArray());
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("Cannot read the kinesis-mock certificate from " + keyStore, e);
    }
    try {
      Files.move(dir, tls, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.exists(trustStore)) { // not made meanwhile by another JVM
        throw e;
      }
    }
    return trustStore;
  }

  /** PEM text with JSON-escaped line breaks. */
  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    String text = "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    return text.replace("\n", "\\n");
  }

  /**
   * A Kinesis client of this kinesis-mock ({@link KinesisTestClient}) that trusts its certificate
   * whatever the JVM's trust store, made on first use and closed with it: callers do not close it.
   *
   * @throws IllegalStateException when the trust store cannot be read
   */
  public synchronized KinesisClient client() {
    if (client == null) {
      client = KinesisTestClient.create(endpoint(), trustManagers());
    }
    return client;
  }

  private TrustManager[] trustManagers() {
    try (InputStream in = Files.newInputStream(trustStore)) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(in, PASSWORD.toCharArray());
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      return factory.getTrustManagers();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("Cannot read the kinesis-mock trust store " + trustStore, e);
    }
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

  @Override
  public String toString() {
    return "kinesis-mock " + VERSION + " at " + endpoint() + " (files in " + dir + ")";
  }
}
