package io.lakestream.testkit.sqs;

import io.lakestream.testkit.FreePort;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.CreateQueueRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * A real SQS-API server (ElasticMQ, in this JVM) on 127.0.0.1 on a free port, in memory.
 *
 * <p>Guarantees: the AWS SDK v2 SQS client reaches it at {@link #endpoint()} with region {@link
 * #REGION} and any credentials ({@link #ACCESS_KEY}/{@link #SECRET_KEY} are what {@link #client()}
 * uses); received messages stay hidden for the queue's visibility timeout and come back unless
 * deleted, as on AWS. {@link #close()} stops the server and its actor system.
 *
 * <p>Failures: {@link #start()} throws {@link IllegalStateException} when no port could be bound
 * after a few tries; the helpers throw the SDK's exceptions.
 */
public final class SqsServer implements AutoCloseable {
  /** The region clients are configured with. */
  public static final String REGION = "us-east-1";

  /** The access key clients are configured with (the server checks none). */
  public static final String ACCESS_KEY = "lakestream-access-key";

  /** The secret key clients are configured with. */
  public static final String SECRET_KEY = "lakestream-secret-key";

  private static final Logger LOG = LoggerFactory.getLogger(SqsServer.class);
  private static final int START_ATTEMPTS = 3;

  private final SQSRestServer server;
  private final URI endpoint;
  private final SqsClient client;

  private SqsServer(SQSRestServer server, URI endpoint) {
    this.server = server;
    this.endpoint = endpoint;
    this.client =
        SqsClient.builder()
            .httpClientBuilder(ApacheHttpClient.builder())
            .endpointOverride(endpoint)
            .region(Region.of(REGION))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
            .build();
  }

  /**
   * Starts a server on a free port of 127.0.0.1.
   *
   * @throws IllegalStateException if it does not start
   */
  public static SqsServer start() {
    RuntimeException last = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      int port = FreePort.pick();
      SQSRestServer server = null;
      try {
        server =
            SQSRestServerBuilder.withInterface(FreePort.LOOPBACK)
                .withPort(port)
                .withAWSRegion(REGION)
                .start();
        server.waitUntilStarted();
        URI endpoint = URI.create("http://" + FreePort.LOOPBACK + ":" + port);
        LOG.info("SQS server (ElasticMQ) ready at {}", endpoint);
        return new SqsServer(server, endpoint);
      } catch (RuntimeException e) {
        last = e;
        if (server != null) {
          try {
            server.stopAndWait();
          } catch (RuntimeException ignored) {
            e.addSuppressed(ignored);
          }
        }
      }
    }
    throw new IllegalStateException("SQS server (ElasticMQ) failed to start: " + last, last);
  }

  /** The server's base URL, {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return endpoint;
  }

  /** A client of this server (closed with it). */
  public SqsClient client() {
    return client;
  }

  /** Creates a queue whose messages come back {@code visibilityTimeout} after a receive. */
  public String createQueue(String name, Duration visibilityTimeout) {
    return client
        .createQueue(
            CreateQueueRequest.builder()
                .queueName(name)
                .attributes(
                    Map.of(
                        QueueAttributeName.VISIBILITY_TIMEOUT,
                        Long.toString(visibilityTimeout.toSeconds())))
                .build())
        .queueUrl();
  }

  /** Sends one message. */
  public void send(String queueUrl, String body) {
    client.sendMessage(SendMessageRequest.builder().queueUrl(queueUrl).messageBody(body).build());
  }

  /** Messages in the queue, visible or received and not yet deleted (approximate on AWS). */
  public long messagesNotDeleted(String queueUrl) {
    Map<String, String> attributes =
        client
            .getQueueAttributes(
                GetQueueAttributesRequest.builder()
                    .queueUrl(queueUrl)
                    .attributeNames(
                        List.of(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                    .build())
            .attributesAsStrings();
    return Long.parseLong(attributes.get("ApproximateNumberOfMessages"))
        + Long.parseLong(attributes.get("ApproximateNumberOfMessagesNotVisible"));
  }

  @Override
  public void close() {
    client.close();
    server.stopAndWait();
  }
}
