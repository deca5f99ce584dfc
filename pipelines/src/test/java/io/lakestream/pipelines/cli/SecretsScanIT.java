package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream run bronze} against a broker that authenticates with SCRAM over TLS, the
 * password and the trust store's password given as users give them ({@code -o
 * kafka.sasl.jaas.config=...}, {@code -o kafka.ssl.truststore.password=...}): neither is in any
 * line the process prints (its log included), nor in any file the query writes (checkpoint
 * location: offsets, commits, progress, run records, metadata, savepoints and state; the tables and
 * their logs), read as bytes, and a wrong password fails the run with an error that names the
 * option but not the password.
 */
class SecretsScanIT {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.withScram();

  private static final String PASSWORD = "Pw-" + UUID.randomUUID();
  private static final String WRONG_PASSWORD = "Wrong-" + UUID.randomUUID();

  @TempDir Path dir;

  @BeforeAll
  static void userAndTopic() throws Exception {
    KAFKA.createScramUser("ingest", PASSWORD);
    KAFKA.createTopic("orders", 2);
    List<String> values = new ArrayList<>();
    OrderEvents.versions(40).forEach(e -> values.add(e.json()));
    values.addAll(OrderEvents.malformed("s"));
    OrderEvents.produce(KAFKA.bootstrapServers(), "orders", 2, values);
  }

  @Test
  void theSaslPasswordIsInNoOutputAndNoFileOfTheQuery() throws Exception {
    Path lake = dir.resolve("lake");
    LakestreamProcess run = bronze("ok", lake, PASSWORD, true).await();
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(
            new DeltaTableReader(
                    DeltaTable.forPath(lake.resolve("orders_bronze").toUri().toString()))
                .count())
        .as("the run read through SCRAM")
        .isPositive();
    String truststorePassword = KAFKA.broker().truststorePassword();
    assertThat(run.output()).doesNotContain(PASSWORD).doesNotContain(truststorePassword);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(lake)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).as("files the query wrote").hasSizeGreaterThan(10);
    for (String secret : List.of(PASSWORD, truststorePassword)) {
      byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
      for (Path file : files) {
        assertThat(indexOf(Files.readAllBytes(file), bytes))
            .as("a secret (SASL or trust store password) in %s", file)
            .isNegative();
      }
    }

    LakestreamProcess wrong =
        bronze("wrong", dir.resolve("lake-wrong"), WRONG_PASSWORD, false).await();
    assertThat(wrong.exitCode()).as(wrong.output()).isNotZero();
    assertThat(wrong.output())
        .contains("Kafka authentication failed for user 'ingest'")
        .contains("kafka.sasl.jaas.config")
        .doesNotContain(WRONG_PASSWORD);
  }

  /** Bronze as user ingest with {@code password}: over TLS (SASL_SSL) or SASL_PLAINTEXT. */
  private LakestreamProcess bronze(String name, Path lake, String password, boolean tls)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "bronze",
                "--output",
                lake.toString(),
                "--trigger",
                "availableNow",
                "-o",
                "kafka.sasl.mechanism=SCRAM-SHA-512",
                "-o",
                "kafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule"
                    + " required username=\"ingest\" password=\""
                    + password
                    + "\";"));
    if (tls) {
      args.addAll(
          List.of(
              "-o",
              "kafka.bootstrap.servers=" + KAFKA.broker().scramTlsBootstrapServers(),
              "-o",
              "kafka.security.protocol=SASL_SSL",
              "-o",
              "kafka.ssl.truststore.type=PKCS12",
              "-o",
              "kafka.ssl.truststore.location=" + KAFKA.broker().truststore(),
              "-o",
              "kafka.ssl.truststore.password=" + KAFKA.broker().truststorePassword()));
    } else {
      args.addAll(
          List.of(
              "-o",
              "kafka.bootstrap.servers=" + KAFKA.scramBootstrapServers(),
              "-o",
              "kafka.security.protocol=SASL_PLAINTEXT"));
    }
    return LakestreamProcess.start(dir, name, args);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
