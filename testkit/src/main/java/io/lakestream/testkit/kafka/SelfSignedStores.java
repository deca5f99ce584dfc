package io.lakestream.testkit.kafka;

import io.lakestream.testkit.TempDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 (and localhost) in a PKCS12 key store for the broker, and
 * a PKCS12 trust store holding that certificate for clients, made with the JDK's {@code keytool}.
 * Valid for two days; both stores use the same password.
 *
 * @param keystore the broker's key store
 * @param truststore the clients' trust store
 * @param password the password of both stores and of the key
 */
record SelfSignedStores(Path keystore, Path truststore, String password) {

  private static SelfSignedStores shared;

  /**
   * The stores of this JVM, made on first use in a temporary directory deleted when the JVM exits.
   *
   * @throws IOException if keytool fails
   */
  static synchronized SelfSignedStores shared() throws IOException {
    if (shared == null) {
      TempDirectory dir = TempDirectory.create("lakestream-kafka-tls-");
      Runtime.getRuntime().addShutdownHook(new Thread(dir::close, "kafka-tls-stores-cleanup"));
      byte[] random = new byte[12];
      new SecureRandom().nextBytes(random);
      shared = create(dir.path(), Base64.getUrlEncoder().withoutPadding().encodeToString(random));
    }
    return shared;
  }

  /**
   * Creates the stores in {@code dir}.
   *
   * @throws IOException if keytool fails (its output is in the message)
   */
  static SelfSignedStores create(Path dir, String password) throws IOException {
    Path keystore = dir.resolve("broker.keystore.p12");
    Path truststore = dir.resolve("client.truststore.p12");
    Path certificate = dir.resolve("broker.pem");
    keytool(
        dir,
        "-genkeypair",
        "-alias",
        "broker",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=IP:127.0.0.1,DNS:localhost",
        "-keystore",
        keystore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        password,
        "-keypass",
        password);
    keytool(
        dir,
        "-exportcert",
        "-rfc",
        "-alias",
        "broker",
        "-keystore",
        keystore.toString(),
        "-storepass",
        password,
        "-file",
        certificate.toString());
    keytool(
        dir,
        "-importcert",
        "-noprompt",
        "-alias",
        "broker",
        "-file",
        certificate.toString(),
        "-keystore",
        truststore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        password);
    return new SelfSignedStores(keystore, truststore, password);
  }

  private static void keytool(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Path output = dir.resolve("keytool.log");
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
            .start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool " + args[0] + " did not finish in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running keytool", e);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          "keytool "
              + args[0]
              + " failed with status "
              + process.exitValue()
              + ": "
              + Files.readString(output, StandardCharsets.UTF_8));
    }
  }
}
