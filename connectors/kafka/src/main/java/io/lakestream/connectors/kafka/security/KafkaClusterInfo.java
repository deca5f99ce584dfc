package io.lakestream.connectors.kafka.security;

import io.lakestream.api.annotation.Internal;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a job needs to know about a Kafka cluster before it starts, fetched once with an admin
 * client: that the servers answer and accept the login, and the brokers' transaction timeout limit.
 *
 * @param clusterId the cluster id
 * @param brokers the number of brokers
 * @param transactionMaxTimeoutMs the broker's {@code transaction.max.timeout.ms}, or empty if the
 *     login may not describe broker configs (e.g. no DescribeConfigs permission)
 */
@Internal
public record KafkaClusterInfo(
    String clusterId, int brokers, OptionalLong transactionMaxTimeoutMs) {

  /** The broker config that caps a producer's {@code transaction.timeout.ms}. */
  public static final String TRANSACTION_MAX_TIMEOUT = "transaction.max.timeout.ms";

  private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterInfo.class);

  /**
   * Connects with {@code security}'s properties and reads the cluster's facts.
   *
   * @throws KafkaAuthenticationException if the brokers refuse the login or the TLS handshake (no
   *     secret in the message)
   * @throws KafkaUnreachableException if the servers do not answer within {@code timeout}
   */
  public static KafkaClusterInfo fetch(KafkaClientSecurity security, Duration timeout) {
    Properties props = security.clientProperties();
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, "lakestream-cluster-check");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    try (Admin admin = Admin.create(props)) {
      DescribeClusterResult cluster = admin.describeCluster();
      Collection<Node> nodes = cluster.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      String clusterId = cluster.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new KafkaClusterInfo(
          clusterId, nodes.size(), transactionMaxTimeout(admin, nodes, timeout));
    } catch (ExecutionException e) {
      throw security
          .authenticationFailure(e)
          .<RuntimeException>map(auth -> auth)
          .orElseGet(
              () ->
                  new KafkaUnreachableException(
                      "Kafka servers "
                          + String.join(",", security.bootstrapServers())
                          + " refused the cluster check: "
                          + security.redact(String.valueOf(e.getCause()))));
    } catch (TimeoutException e) {
      throw new KafkaUnreachableException(
          "Kafka servers "
              + String.join(",", security.bootstrapServers())
              + " did not answer within "
              + timeout.toSeconds()
              + " s (kafka.security.protocol="
              + security.protocol()
              + "): check option 'kafka.bootstrap.servers', the network path and that the"
              + " port matches the security protocol");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaUnreachableException("interrupted while checking the Kafka cluster");
    }
  }

  private static OptionalLong transactionMaxTimeout(
      Admin admin, Collection<Node> nodes, Duration timeout) throws InterruptedException {
    if (nodes.isEmpty()) {
      return OptionalLong.empty();
    }
    ConfigResource broker =
        new ConfigResource(ConfigResource.Type.BROKER, nodes.iterator().next().idString());
    try {
      Map<ConfigResource, Config> configs =
          admin
              .describeConfigs(List.of(broker))
              .all()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      ConfigEntry entry = configs.get(broker).get(TRANSACTION_MAX_TIMEOUT);
      return entry == null || entry.value() == null
          ? OptionalLong.empty()
          : OptionalLong.of(Long.parseLong(entry.value()));
    } catch (ExecutionException | TimeoutException | NumberFormatException e) {
      LOG.info(
          "Cannot read the brokers' {} ({}); transaction timeouts are checked against Kafka's"
              + " default instead",
          TRANSACTION_MAX_TIMEOUT,
          e.getCause() == null ? e.toString() : e.getCause().getClass().getSimpleName());
      return OptionalLong.empty();
    }
  }
}
