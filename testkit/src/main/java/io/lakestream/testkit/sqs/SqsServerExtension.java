package io.lakestream.testkit.sqs;

import io.lakestream.testkit.ServiceExtension;
import java.net.URI;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs an {@link SqsServer} (ElasticMQ on 127.0.0.1) for the tests of a
 * class ({@code static} field) or for each test (instance field):
 *
 * <pre>{@code
 * @RegisterExtension static final SqsServerExtension SQS = new SqsServerExtension();
 *
 * @Test void receives() {
 *   String queue = SQS.server().createQueue("events", Duration.ofSeconds(2));
 * }
 * }</pre>
 *
 * <p>See {@link ServiceExtension} for the life cycle.
 */
public final class SqsServerExtension extends ServiceExtension<SqsServer> {

  @Override
  protected SqsServer start(ExtensionContext context) {
    return SqsServer.start();
  }

  /** The running server. */
  public SqsServer server() {
    return service();
  }

  /** See {@link SqsServer#endpoint()}. */
  public URI endpoint() {
    return service().endpoint();
  }
}
