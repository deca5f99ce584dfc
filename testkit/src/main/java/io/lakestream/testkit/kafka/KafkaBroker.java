package io.lakestream.testkit.kafka;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.TempDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4.x broker (KRaft combined mode: broker and controller in one process)
 * running in a child JVM on 127.0.0.1, on ports picked at start.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #start()} returns only when the broker answers an admin request; otherwise it throws
 *       {@link KafkaBrokerStartException} with the tail of the broker's log, after killing the
 *       child and deleting its directory. Start typically takes 3-4 s; the limit is {@link
 *       #START_TIMEOUT}.
 *   <li>Every internal topic has replication factor 1 and min.insync.replicas 1, so transactions,
 *       consumer groups and {@code acks=all} work on the single node; consumer groups rebalance
 *       without initial delay; {@code transaction.max.timeout.ms} is one hour so producers with
 *       Flink's default transaction timeout are accepted.
 *   <li>The broker's jars (kafka-clients 4.x, Scala) stay in the child JVM: the test class path
 *       only needs the kafka-clients version the Flink connector uses.
 *   <li>The child never outlives the test JVM: it deletes its directory and halts when its standard
 *       input (a pipe from this JVM) reaches end-of-file, which also happens on {@code kill -9} of
 *       this JVM, and a shutdown hook kills it and deletes its directory on a normal exit of this
 *       JVM.
 *   <li>{@link #close()} kills the child, waits for it to exit and deletes its directory (data and
 *       logs).
 *   <li>A broker started with {@link #startWithScram} also has a {@code SASL_PLAINTEXT} listener
 *       ({@link #scramBootstrapServers()}) and a {@code SASL_SSL} listener ({@link
 *       #scramTlsBootstrapServers()}, a self-signed certificate for 127.0.0.1 that {@link
 *       #truststore()} trusts) that accept SCRAM-SHA-512 and SCRAM-SHA-256 logins of the users
 *       created with {@link #createScramUser} and refuse every other login with an authentication
 *       error. The plaintext listener stays for the admin helpers and between broker and
 *       controller; there is no authorizer, so an authenticated user may do everything.
 * </ul>
 *
 * <p>Thread safety: the admin helpers may be called from any thread; {@link #close()} should be
 * called once, after the tests that use the broker.
 */
public final class KafkaBroker implements AutoCloseable {

  /** How long {@link #start()} waits for the broker to answer before it gives up. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** Timeout of each admin helper call. */
  public static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);
  private static final String LAUNCHER = "io.lakestream.testkit.kafka.ParentWatchingLauncher";
  private static final String CLASSPATH_RESOURCE = ParentWatchingLauncher.CLASSPATH_RESOURCE;
  private static final int BIND_ATTEMPTS = 3;
  private static final int LOG_TAIL_LINES = 60;
  private static final int SCRAM_ITERATIONS = 4096;

  private final TempDirectory directory;
  private volatile Process process;
  private final List<String> command;
  private final int port;
  private final int scramPort;
  private final int scramTlsPort;
  private final SelfSignedStores stores;
  private final Thread shutdownHook;
  private Admin admin;
  private boolean closed;

  private KafkaBroker(
      TempDirectory directory,
      Process process,
      List<String> command,
      int port,
      int scramPort,
      int scramTlsPort,
      SelfSignedStores stores,
      Thread shutdownHook,
      Admin admin) {
    this.directory = directory;
    this.process = process;
    this.command = List.copyOf(command);
    this.port = port;
    this.scramPort = scramPort;
    this.scramTlsPort = scramTlsPort;
    this.stores = stores;
    this.shutdownHook = shutdownHook;
    this.admin = admin;
  }

  /**
   * Starts a broker with the default settings; see the class comment.
   *
   * @throws KafkaBrokerStartException if the broker does not come up within {@link #START_TIMEOUT}
   *     or its JVM exits; the message holds the tail of the broker's log
   * @throws IllegalStateException if the broker runtime (module lakestream-kafka-broker-runtime or
   *     the jars it lists) cannot be found
   */
  public static KafkaBroker start() {
    return start(Map.of());
  }

  /**
   * Starts a broker whose {@code server.properties} are the defaults overridden by {@code
   * brokerProperties} (for example {@code auto.create.topics.enable=false}). Overriding listener or
   * directory settings breaks the broker.
   *
   * @throws KafkaBrokerStartException if the broker does not come up within {@link #START_TIMEOUT}
   *     or its JVM exits; the message holds the tail of the broker's log
   * @throws IllegalStateException if the broker runtime cannot be found
   */
  public static KafkaBroker start(Map<String, String> brokerProperties) {
    return start(brokerProperties, false);
  }

  /**
   * Starts a broker like {@link #start(Map)} with an additional {@code SASL_PLAINTEXT} listener for
   * SCRAM-SHA-512 and SCRAM-SHA-256 logins; create its users with {@link #createScramUser}.
   *
   * @throws KafkaBrokerStartException if the broker does not come up within {@link #START_TIMEOUT}
   *     or its JVM exits; the message holds the tail of the broker's log
   * @throws IllegalStateException if the broker runtime cannot be found
   */
  public static KafkaBroker startWithScram(Map<String, String> brokerProperties) {
    return start(brokerProperties, true);
  }

  /**
   * Starts a broker like {@link #start(Map)} whose JVM runs with Kafka's own production settings
   * ({@link #PRODUCTION_JVM_OPTIONS}) instead of the test defaults (a small heap, the serial
   * collector and the C1 compiler only, which start fast but answer more slowly): for benchmarks
   * that measure Kafka's latency.
   *
   * @throws KafkaBrokerStartException if the broker does not come up within {@link #START_TIMEOUT}
   *     or its JVM exits; the message holds the tail of the broker's log
   * @throws IllegalStateException if the broker runtime cannot be found
   */
  public static KafkaBroker startTuned(Map<String, String> brokerProperties) {
    return start(brokerProperties, false, PRODUCTION_JVM_OPTIONS);
  }

  /**
   * The broker JVM's settings in {@link #startTuned}: those of Kafka's start scripts ({@code
   * KAFKA_HEAP_OPTS} of kafka-server-start.sh, {@code KAFKA_JVM_PERFORMANCE_OPTS} of
   * kafka-run-class.sh).
   */
  public static final List<String> PRODUCTION_JVM_OPTIONS =
      List.of(
          "-Xms1g",
          "-Xmx1g",
          "-XX:+UseG1GC",
          "-XX:MaxGCPauseMillis=20",
          "-XX:InitiatingHeapOccupancyPercent=35",
          "-XX:+ExplicitGCInvokesConcurrent");

  /** The broker JVM's settings in tests: quick to start, small. */
  private static final List<String> TEST_JVM_OPTIONS =
      List.of("-Xms128m", "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static KafkaBroker start(Map<String, String> brokerProperties, boolean scram) {
    return start(brokerProperties, scram, TEST_JVM_OPTIONS);
  }

  private static KafkaBroker start(
      Map<String, String> brokerProperties, boolean scram, List<String> jvmOptions) {
    List<String> classpath = brokerClasspath();
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(classpath, brokerProperties, scram, jvmOptions);
      } catch (KafkaBrokerStartException e) {
        if (attempt >= BIND_ATTEMPTS || !e.getMessage().contains("Address already in use")) {
          throw e;
        }
        LOG.warn("Kafka broker port was taken before the broker bound it; retrying on new ports");
      }
    }
  }

  /** The {@code bootstrap.servers} value for clients: {@code 127.0.0.1:<port>}. */
  public String bootstrapServers() {
    return FreePort.LOOPBACK + ":" + port;
  }

  /** The port of the broker's client listener. */
  public int port() {
    return port;
  }

  /**
   * The {@code bootstrap.servers} value of the SCRAM listener ({@code SASL_PLAINTEXT}): {@code
   * 127.0.0.1:<port>}.
   *
   * @throws IllegalStateException if the broker was not started with {@link #startWithScram}
   */
  public String scramBootstrapServers() {
    if (scramPort < 0) {
      throw new IllegalStateException(
          "this Kafka broker has no SCRAM listener: start it with KafkaBroker.startWithScram or"
              + " KafkaBrokerExtension.withScram()");
    }
    return FreePort.LOOPBACK + ":" + scramPort;
  }

  /**
   * The {@code bootstrap.servers} value of the SCRAM listener over TLS ({@code SASL_SSL}): {@code
   * 127.0.0.1:<port>}. Clients need {@link #truststore()} to trust its certificate.
   *
   * @throws IllegalStateException if the broker was not started with {@link #startWithScram}
   */
  public String scramTlsBootstrapServers() {
    scramBootstrapServers(); // fails without SCRAM listeners
    return FreePort.LOOPBACK + ":" + scramTlsPort;
  }

  /**
   * The PKCS12 trust store (password {@link #truststorePassword()}) holding the self-signed
   * certificate of the {@code SASL_SSL} listener, issued to 127.0.0.1 and localhost.
   *
   * @throws IllegalStateException if the broker was not started with {@link #startWithScram}
   */
  public Path truststore() {
    scramBootstrapServers();
    return stores.truststore();
  }

  /** The password of {@link #truststore()}. */
  public String truststorePassword() {
    scramBootstrapServers();
    return stores.password();
  }

  /**
   * Creates (or replaces) a SCRAM user with both SCRAM-SHA-512 and SCRAM-SHA-256 credentials and
   * waits until the broker lists them, so a client may log in as soon as this returns.
   *
   * @throws IllegalStateException if the broker was not started with {@link #startWithScram}
   * @throws KafkaAdminException if the broker refuses the credentials or does not answer in {@link
   *     #ADMIN_TIMEOUT}
   */
  public void createScramUser(String user, String password) {
    scramBootstrapServers(); // fails without a SCRAM listener
    // One request per mechanism: the broker refuses two alterations of one user in one request.
    for (ScramMechanism mechanism :
        List.of(ScramMechanism.SCRAM_SHA_512, ScramMechanism.SCRAM_SHA_256)) {
      UserScramCredentialAlteration upsert =
          new UserScramCredentialUpsertion(
              user, new ScramCredentialInfo(mechanism, SCRAM_ITERATIONS), password);
      await(
          "create " + mechanism + " credentials of SCRAM user " + user,
          admin.alterUserScramCredentials(List.of(upsert)).all());
    }
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    while (true) {
      try {
        UserScramCredentialsDescription description =
            await(
                    "describe SCRAM user " + user,
                    admin.describeUserScramCredentials(List.of(user)).all())
                .get(user);
        if (description != null && description.credentialInfos().size() == 2) {
          return;
        }
      } catch (KafkaAdminException notYetVisible) {
        // ResourceNotFoundException until the metadata reaches the broker
      }
      if (System.nanoTime() > deadline) {
        throw new KafkaAdminException(
            "SCRAM user " + user + " not visible after " + ADMIN_TIMEOUT, null);
      }
      sleep(50);
    }
  }

  /**
   * Client properties for the SCRAM listener: {@code bootstrap.servers}, {@code
   * security.protocol=SASL_PLAINTEXT}, the mechanism and a {@code ScramLoginModule} JAAS config
   * with the given credentials.
   *
   * @param mechanism {@code SCRAM-SHA-512} or {@code SCRAM-SHA-256}
   * @throws IllegalStateException if the broker was not started with {@link #startWithScram}
   */
  public Properties scramClientProperties(String mechanism, String user, String password) {
    Properties properties = new Properties();
    properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, scramBootstrapServers());
    properties.setProperty("security.protocol", "SASL_PLAINTEXT");
    properties.setProperty("sasl.mechanism", mechanism);
    properties.setProperty(
        "sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
            + user
            + "\" password=\""
            + password
            + "\";");
    return properties;
  }

  /**
   * Client properties with only {@code bootstrap.servers} set, to be completed by the caller (for
   * producers, consumers or admins).
   */
  public Properties clientProperties() {
    Properties properties = new Properties();
    properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return properties;
  }

  /**
   * An admin client connected to the broker, shared by the helpers and closed by {@link #close}.
   */
  public Admin admin() {
    return admin;
  }

  /** The child JVM that runs the broker. */
  public ProcessHandle process() {
    return process.toHandle();
  }

  /** The broker's directory: {@code server.properties}, {@code data/} and the logs. */
  public Path directory() {
    return directory.path();
  }

  /** The broker's log file (log4j2 output of the child JVM). */
  public Path logFile() {
    return directory.path().resolve("server.log");
  }

  /**
   * Creates a topic with replication factor 1 and waits until every partition has a leader.
   *
   * @throws KafkaAdminException if the topic cannot be created (for example it exists) in {@link
   *     #ADMIN_TIMEOUT}
   */
  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Map.of());
  }

  /**
   * Creates a topic with replication factor 1 and the given topic configs (for example {@code
   * cleanup.policy=compact}) and waits until every partition has a leader.
   *
   * @throws KafkaAdminException if the topic cannot be created in {@link #ADMIN_TIMEOUT}
   */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
    await("create topic " + name, admin.createTopics(List.of(topic)).all());
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    while (true) {
      try {
        TopicDescription description = describeTopic(name);
        if (description.partitions().size() == partitions
            && description.partitions().stream().allMatch(p -> p.leader() != null)
            && leadersServe(name)) {
          return;
        }
      } catch (KafkaAdminException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw e;
        }
        // created on the controller, not yet known to the broker's metadata cache
      }
      if (System.nanoTime() > deadline) {
        throw new KafkaAdminException(
            "topic " + name + " has no leader for every partition after " + ADMIN_TIMEOUT, null);
      }
      sleep(50);
    }
  }

  /**
   * Whether every partition's leader answers a list-offsets request. Metadata can name a leader
   * before the partition is ready on it; a producer that writes then gets NOT_LEADER_OR_FOLLOWER,
   * and an idempotent kafka-clients 3.x producer can then stall on OUT_OF_ORDER_SEQUENCE_NUMBER.
   */
  private boolean leadersServe(String topic) {
    try {
      offsets(topic, OffsetSpec.latest());
      return true;
    } catch (KafkaAdminException e) {
      return false;
    }
  }

  /**
   * Deletes a topic and waits until it is no longer listed.
   *
   * @throws KafkaAdminException if the topic does not exist or is not deleted in {@link
   *     #ADMIN_TIMEOUT}
   */
  public void deleteTopic(String name) {
    await("delete topic " + name, admin.deleteTopics(List.of(name)).all());
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    while (topics().contains(name)) {
      if (System.nanoTime() > deadline) {
        throw new KafkaAdminException("topic " + name + " still listed after deletion", null);
      }
      sleep(50);
    }
  }

  /**
   * The names of the topics, internal topics excluded.
   *
   * @throws KafkaAdminException if the broker does not answer in {@link #ADMIN_TIMEOUT}
   */
  public Set<String> topics() {
    return await("list topics", admin.listTopics().names());
  }

  /**
   * The partitions of a topic.
   *
   * @throws KafkaAdminException if the topic does not exist
   */
  public List<TopicPartition> partitions(String topic) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (TopicPartitionInfo info : describeTopic(topic).partitions()) {
      partitions.add(new TopicPartition(topic, info.partition()));
    }
    return partitions;
  }

  /**
   * The log end offset (offset of the next record) of every partition of a topic. With transactions
   * this includes control records and records of open transactions.
   *
   * @throws KafkaAdminException if the topic does not exist
   */
  public Map<TopicPartition, Long> endOffsets(String topic) {
    return offsets(topic, OffsetSpec.latest());
  }

  /**
   * The log start offset (offset of the first record that was not deleted) of every partition of a
   * topic.
   *
   * @throws KafkaAdminException if the topic does not exist
   */
  public Map<TopicPartition, Long> startOffsets(String topic) {
    return offsets(topic, OffsetSpec.earliest());
  }

  /**
   * Deletes every record currently in a topic by moving each partition's log start offset to its
   * end offset (what retention would do). Consumers positioned before that then see an out-of-range
   * offset: the way to test {@code failOnDataLoss}.
   *
   * @throws KafkaAdminException if the topic does not exist or the deletion fails
   */
  public void deleteRecords(String topic) {
    Map<TopicPartition, RecordsToDelete> request = new HashMap<>();
    endOffsets(topic).forEach((tp, end) -> request.put(tp, RecordsToDelete.beforeOffset(end)));
    await("delete records of " + topic, admin.deleteRecords(request).all());
  }

  /**
   * Deletes the records of one partition below {@code offset}.
   *
   * @throws KafkaAdminException if the partition does not exist, the offset is beyond its end or
   *     the deletion fails
   */
  public void deleteRecordsBefore(TopicPartition partition, long offset) {
    await(
        "delete records of " + partition + " before " + offset,
        admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(offset))).all());
  }

  /**
   * The committed offsets of a consumer group (empty if the group has none).
   *
   * @throws KafkaAdminException if the broker does not answer in {@link #ADMIN_TIMEOUT}
   */
  public Map<TopicPartition, Long> committedOffsets(String groupId) {
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
    await(
            "list offsets of group " + groupId,
            admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata())
        .forEach(
            (tp, offset) -> {
              if (offset != null) {
                offsets.put(tp, offset.offset());
              }
            });
    return offsets;
  }

  /**
   * Restarts the broker as a crash would: kills its JVM with SIGKILL (acknowledged records are in
   * the operating system's page cache and survive; a SIGTERM would let the launcher delete the
   * directory on its way out), waits {@code downtime} with nothing listening, then starts it again
   * on the same ports with the same data, topics, offsets and users, recovering its logs as after
   * an unclean shutdown. Clients reconnect by themselves.
   *
   * @throws KafkaBrokerStartException if the broker does not come back within {@link
   *     #START_TIMEOUT}
   * @throws IllegalStateException if the old JVM does not exit within 60 s, or the broker is closed
   */
  public synchronized void restart(Duration downtime) {
    if (closed) {
      throw new IllegalStateException("the broker is closed");
    }
    Path dir = directory.path();
    try {
      process.destroyForcibly();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "Kafka broker (pid " + process.pid() + ") did not exit 60 s after SIGKILL");
      }
      LOG.info("Kafka broker at {} stopped (restart)", bootstrapServers());
      Thread.sleep(downtime.toMillis());
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()))
              .start();
      admin.close(Duration.ZERO);
      admin = awaitReady(process, port, dir);
      LOG.info("Kafka broker at {} is back (pid {})", bootstrapServers(), process.pid());
    } catch (IOException e) {
      throw new KafkaBrokerStartException("cannot start the Kafka broker again" + logTail(dir), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while restarting the Kafka broker", e);
    }
  }

  /**
   * Kills the broker, waits for its JVM to exit and deletes its directory. Idempotent.
   *
   * @throws IllegalStateException if the child JVM does not exit within 30 s of being killed
   * @throws UncheckedIOException if the directory cannot be deleted
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      admin.close(Duration.ZERO);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException alreadyShuttingDown) {
        // the hook runs anyway
      }
      killAndWait(process);
      directory.close();
    }
  }

  @Override
  public String toString() {
    return "KafkaBroker["
        + bootstrapServers()
        + (scramPort < 0 ? "" : ", SCRAM " + scramBootstrapServers())
        + ", pid "
        + process.pid()
        + "]";
  }

  // ---------------------------------------------------------------------------------------------

  private static KafkaBroker startOnce(
      List<String> classpath,
      Map<String, String> overrides,
      boolean scram,
      List<String> jvmOptions) {
    long started = System.nanoTime();
    TempDirectory directory = TempDirectory.create("lakestream-kafka-");
    Process process = null;
    Thread hook = null;
    Admin admin = null;
    try {
      int port = FreePort.pick();
      int controllerPort = FreePort.pick();
      while (controllerPort == port) {
        controllerPort = FreePort.pick();
      }
      int scramPort = -1;
      int scramTlsPort = -1;
      SelfSignedStores stores = null;
      Path dir = directory.path();
      if (scram) {
        List<Integer> taken = new ArrayList<>(List.of(port, controllerPort));
        scramPort = pickOtherThan(taken);
        taken.add(scramPort);
        scramTlsPort = pickOtherThan(taken);
        stores = SelfSignedStores.shared();
      }
      Path properties = dir.resolve("server.properties");
      writeProperties(
          properties,
          serverProperties(dir, port, controllerPort, scramPort, scramTlsPort, stores, overrides));
      Path log4j = dir.resolve("log4j2.properties");
      Files.writeString(log4j, log4jConfig(dir.resolve("server.log")), StandardCharsets.UTF_8);

      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.addAll(
          List.of(
              "-Djava.awt.headless=true",
              "-Dlog4j2.configurationFile=" + log4j.toUri(),
              "-Dkafka.logs.dir=" + dir,
              "-cp",
              String.join(java.io.File.pathSeparator, classpath),
              LAUNCHER,
              properties.toString(),
              randomClusterId(),
              dir.toString()));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("stdout.log").toFile());
      // Standard input stays a pipe from this JVM: its end-of-file tells the child to halt.
      process = builder.start();
      KafkaBroker[] current = new KafkaBroker[1];
      Process first = process;
      hook =
          new Thread(
              () -> {
                killAndWait(current[0] == null ? first : current[0].process);
                directory.close();
              },
              "kafka-broker-killer-" + process.pid());
      Runtime.getRuntime().addShutdownHook(hook);

      admin = awaitReady(process, port, dir);
      KafkaBroker broker =
          new KafkaBroker(
              directory, process, command, port, scramPort, scramTlsPort, stores, hook, admin);
      current[0] = broker;
      LOG.info(
          "Kafka broker ready at {} (pid {}, dir {}) in {} ms",
          broker.bootstrapServers(),
          process.pid(),
          dir,
          Duration.ofNanos(System.nanoTime() - started).toMillis());
      return broker;
    } catch (RuntimeException | IOException | LinkageError e) {
      if (admin != null) {
        admin.close(Duration.ZERO);
      }
      if (process != null) {
        killAndWait(process);
      }
      if (hook != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
          // ignore
        }
      }
      KafkaBrokerStartException failure =
          e instanceof KafkaBrokerStartException
              ? (KafkaBrokerStartException) e
              : new KafkaBrokerStartException(
                  "Kafka broker failed to start: " + e + logTail(directory.path()), e);
      try {
        directory.close();
      } catch (RuntimeException cleanup) {
        failure.addSuppressed(cleanup);
      }
      throw failure;
    }
  }

  private static Admin awaitReady(Process process, int port, Path dir) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    Admin admin = null;
    try {
      while (true) {
        if (!process.isAlive()) {
          throw new KafkaBrokerStartException(
              "Kafka broker JVM exited with status "
                  + process.exitValue()
                  + (process.exitValue() == ParentWatchingLauncher.FORMAT_FAILED
                      ? " (formatting its storage failed)"
                      : "")
                  + " before it was ready"
                  + logTail(dir),
              null);
        }
        if (System.nanoTime() > deadline) {
          throw new KafkaBrokerStartException(
              "Kafka broker on port "
                  + port
                  + " did not answer within "
                  + START_TIMEOUT.toSeconds()
                  + " s"
                  + logTail(dir),
              null);
        }
        if (admin == null && FreePort.accepts(port, Duration.ofMillis(500))) {
          Properties props = new Properties();
          props.setProperty(
              AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, FreePort.LOOPBACK + ":" + port);
          props.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, "lakestream-testkit-admin-" + port);
          admin = Admin.create(props);
        }
        if (admin != null) {
          try {
            Collection<?> nodes =
                admin
                    .describeCluster(new DescribeClusterOptions().timeoutMs(2000))
                    .nodes()
                    .get(3, TimeUnit.SECONDS);
            if (!nodes.isEmpty()) {
              return admin;
            }
          } catch (ExecutionException | TimeoutException notYet) {
            // retry until the deadline
          }
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (admin != null) {
        admin.close(Duration.ZERO);
      }
      throw new KafkaBrokerStartException("interrupted while waiting for the Kafka broker", e);
    } catch (RuntimeException e) {
      if (admin != null) {
        admin.close(Duration.ZERO);
      }
      throw e;
    }
  }

  private static int pickOtherThan(List<Integer> taken) {
    int port = FreePort.pick();
    while (taken.contains(port)) {
      port = FreePort.pick();
    }
    return port;
  }

  private static Map<String, String> serverProperties(
      Path dir,
      int port,
      int controllerPort,
      int scramPort,
      int scramTlsPort,
      SelfSignedStores stores,
      Map<String, String> overrides) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@" + FreePort.LOOPBACK + ":" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://"
            + FreePort.LOOPBACK
            + ":"
            + port
            + ",CONTROLLER://"
            + FreePort.LOOPBACK
            + ":"
            + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://" + FreePort.LOOPBACK + ":" + port);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
    p.put("log.dirs", dir.resolve("data").toString());
    p.put("num.partitions", "1");
    p.put("default.replication.factor", "1");
    p.put("min.insync.replicas", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("transaction.max.timeout.ms", "3600000");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "2");
    p.put("num.recovery.threads.per.data.dir", "1");
    p.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
    // Tests produce records with fixed event times months in the past; with the default 7-day
    // retention the broker's periodic check (every 5 minutes) deleted them mid-test.
    p.put("log.retention.ms", "-1");
    if (scramPort >= 0) {
      String scramListeners =
          "SASL_PLAINTEXT://"
              + FreePort.LOOPBACK
              + ":"
              + scramPort
              + ",SASL_SSL://"
              + FreePort.LOOPBACK
              + ":"
              + scramTlsPort;
      p.put("listeners", p.get("listeners") + "," + scramListeners);
      p.put("advertised.listeners", p.get("advertised.listeners") + "," + scramListeners);
      p.put(
          "listener.security.protocol.map",
          p.get("listener.security.protocol.map")
              + ",SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL");
      p.put("sasl.enabled.mechanisms", "SCRAM-SHA-512,SCRAM-SHA-256");
      for (String listener : List.of("sasl_plaintext", "sasl_ssl")) {
        for (String mechanism : List.of("scram-sha-512", "scram-sha-256")) {
          p.put(
              "listener.name." + listener + "." + mechanism + ".sasl.jaas.config",
              "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        }
      }
      p.put("listener.name.sasl_ssl.ssl.keystore.location", stores.keystore().toString());
      p.put("listener.name.sasl_ssl.ssl.keystore.type", "PKCS12");
      p.put("listener.name.sasl_ssl.ssl.keystore.password", stores.password());
      p.put("listener.name.sasl_ssl.ssl.key.password", stores.password());
    }
    p.putAll(overrides);
    return p;
  }

  private static void writeProperties(Path file, Map<String, String> properties)
      throws IOException {
    StringBuilder text = new StringBuilder();
    properties.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static String log4jConfig(Path logFile) {
    return String.join(
        "\n",
        "status = warn",
        "appender.file.type = File",
        "appender.file.name = file",
        "appender.file.fileName = " + logFile.toString().replace("\\", "/"),
        "appender.file.layout.type = PatternLayout",
        "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n",
        "rootLogger.level = info",
        "rootLogger.appenderRef.file.ref = file",
        "logger.state-change.name = state.change.logger",
        "logger.state-change.level = warn",
        "logger.request.name = kafka.request.logger",
        "logger.request.level = warn",
        "");
  }

  private static String randomClusterId() {
    SecureRandom random = new SecureRandom();
    byte[] bytes = new byte[16];
    String id;
    do {
      random.nextBytes(bytes);
      id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    } while (id.startsWith("-"));
    return id;
  }

  /** The broker's class path: the launcher's location followed by the listed broker jars. */
  private static List<String> brokerClasspath() {
    ClassLoader loader = KafkaBroker.class.getClassLoader();
    String listed;
    try (InputStream in = loader.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource "
                + CLASSPATH_RESOURCE
                + " not found: io.lakestream:lakestream-kafka-broker-runtime must be on the class"
                + " path (build it with mvn install -pl testkit/kafka-broker-runtime)");
      }
      listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + CLASSPATH_RESOURCE, e);
    }
    List<String> classpath = new ArrayList<>();
    classpath.add(launcherLocation(loader));
    List<String> missing = new ArrayList<>();
    for (String entry : listed.split(java.io.File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      if (!Files.exists(Path.of(entry))) {
        missing.add(entry);
      }
      classpath.add(entry);
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "the Kafka broker class path lists jars that do not exist (rebuild"
              + " testkit/kafka-broker-runtime on this machine): "
              + missing);
    }
    return classpath;
  }

  private static String launcherLocation(ClassLoader loader) {
    try {
      // Loaded without initialization or linking: none of the broker's classes are needed here.
      Class<?> launcher = Class.forName(LAUNCHER, false, loader);
      return Path.of(launcher.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
      throw new IllegalStateException(
          "cannot locate " + LAUNCHER + " (module lakestream-kafka-broker-runtime)", e);
    }
  }

  private static void killAndWait(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "Kafka broker JVM (pid " + process.pid() + ") did not exit 30 s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String logTail(Path dir) {
    StringBuilder tail = new StringBuilder();
    for (String name : List.of("stdout.log", "server.log")) {
      Path file = dir.resolve(name);
      if (!Files.isRegularFile(file)) {
        continue;
      }
      try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
        List<String> all = lines.collect(Collectors.toList());
        List<String> last = all.subList(Math.max(0, all.size() - LOG_TAIL_LINES), all.size());
        if (!last.isEmpty()) {
          tail.append("\n--- last ").append(last.size()).append(" lines of ").append(file);
          tail.append(" ---\n").append(String.join("\n", last));
        }
      } catch (IOException | UncheckedIOException e) {
        tail.append("\n(cannot read ").append(file).append(": ").append(e).append(')');
      }
    }
    return tail.length() == 0 ? " (the broker wrote no log)" : tail.toString();
  }

  private TopicDescription describeTopic(String name) {
    return await("describe topic " + name, admin.describeTopics(List.of(name)).allTopicNames())
        .get(name);
  }

  private Map<TopicPartition, Long> offsets(String topic, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (TopicPartition tp : partitions(topic)) {
      request.put(tp, spec);
    }
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
    await("list offsets of " + topic, admin.listOffsets(request).all())
        .forEach((tp, info) -> offsets.put(tp, info.offset()));
    return offsets;
  }

  private static <T> T await(String what, KafkaFuture<T> future) {
    try {
      return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new KafkaAdminException(
          "cannot " + what + ": " + Optional.ofNullable(e.getCause()).orElse(e), e.getCause());
    } catch (TimeoutException e) {
      throw new KafkaAdminException("cannot " + what + ": no answer in " + ADMIN_TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaAdminException("interrupted while trying to " + what, e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaAdminException("interrupted", e);
    }
  }
}
