package io.lakestream.testkit.kafka;

import io.lakestream.testkit.ServiceExtension;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs a {@link KafkaBroker} (real Kafka 4.x, KRaft, in a child JVM on
 * 127.0.0.1) for the tests of a class ({@code static} field) or for each test (instance field):
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();
 *
 * @Test void reads() {
 *   KAFKA.createTopic("input", 3);
 *   props.put("bootstrap.servers", KAFKA.bootstrapServers());
 * }
 * }</pre>
 *
 * <p>The broker is killed and its directory deleted after the tests, whether they pass or not; if
 * it does not start, the tests fail with a {@link KafkaBrokerStartException} holding the tail of
 * its log. See {@link ServiceExtension} for the life cycle.
 */
public final class KafkaBrokerExtension extends ServiceExtension<KafkaBroker> {

  private final Map<String, String> brokerProperties;
  private final boolean scram;

  /** A broker with the default settings of {@link KafkaBroker#start()}. */
  public KafkaBrokerExtension() {
    this(Map.of());
  }

  /** A broker whose {@code server.properties} are overridden by {@code brokerProperties}. */
  public KafkaBrokerExtension(Map<String, String> brokerProperties) {
    this(brokerProperties, false);
  }

  private KafkaBrokerExtension(Map<String, String> brokerProperties, boolean scram) {
    this.brokerProperties = Map.copyOf(brokerProperties);
    this.scram = scram;
  }

  /** A broker with a SCRAM listener too; see {@link KafkaBroker#startWithScram}. */
  public static KafkaBrokerExtension withScram() {
    return withScram(Map.of());
  }

  /**
   * A broker with a SCRAM listener whose {@code server.properties} are overridden by {@code
   * brokerProperties}; see {@link KafkaBroker#startWithScram}.
   */
  public static KafkaBrokerExtension withScram(Map<String, String> brokerProperties) {
    return new KafkaBrokerExtension(brokerProperties, true);
  }

  @Override
  protected KafkaBroker start(ExtensionContext context) {
    return scram
        ? KafkaBroker.startWithScram(brokerProperties)
        : KafkaBroker.start(brokerProperties);
  }

  /** See {@link KafkaBroker#scramBootstrapServers()}. */
  public String scramBootstrapServers() {
    return service().scramBootstrapServers();
  }

  /** See {@link KafkaBroker#scramTlsBootstrapServers()}. */
  public String scramTlsBootstrapServers() {
    return service().scramTlsBootstrapServers();
  }

  /** See {@link KafkaBroker#createScramUser(String, String)}. */
  public void createScramUser(String user, String password) {
    service().createScramUser(user, password);
  }

  /** The running broker, for the helpers not repeated here. */
  public KafkaBroker broker() {
    return service();
  }

  /** See {@link KafkaBroker#bootstrapServers()}. */
  public String bootstrapServers() {
    return service().bootstrapServers();
  }

  /** See {@link KafkaBroker#admin()}. */
  public Admin admin() {
    return service().admin();
  }

  /** See {@link KafkaBroker#createTopic(String, int)}. */
  public void createTopic(String name, int partitions) {
    service().createTopic(name, partitions);
  }

  /** See {@link KafkaBroker#createTopic(String, int, Map)}. */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    service().createTopic(name, partitions, configs);
  }

  /** See {@link KafkaBroker#deleteTopic(String)}. */
  public void deleteTopic(String name) {
    service().deleteTopic(name);
  }

  /** See {@link KafkaBroker#deleteRecords(String)}. */
  public void deleteRecords(String topic) {
    service().deleteRecords(topic);
  }
}
