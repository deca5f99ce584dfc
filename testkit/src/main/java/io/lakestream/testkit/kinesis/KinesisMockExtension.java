package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.ServiceExtension;
import java.net.URI;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * JUnit 5 extension that runs {@link KinesisMock} for the tests of a class ({@code static} field)
 * or for each test (instance field), and makes this JVM trust its certificate meanwhile ({@link
 * KinesisMock#trustInThisJvm()}):
 *
 * <pre>{@code
 * @RegisterExtension static final KinesisMockExtension KINESIS = new KinesisMockExtension();
 * }</pre>
 *
 * <p>See {@link io.lakestream.testkit.ServiceExtension} for the life cycle.
 */
public final class KinesisMockExtension extends ServiceExtension<KinesisMock> {
  private AutoCloseable trust;

  @Override
  protected KinesisMock start(ExtensionContext context) throws Exception {
    KinesisMock mock = KinesisMock.start();
    trust = mock.trustInThisJvm();
    return mock;
  }

  @Override
  protected void stop(KinesisMock service) throws Exception {
    trust.close();
    service.close();
  }

  /** See {@link KinesisMock#endpoint()}. */
  public URI endpoint() {
    return service().endpoint();
  }

  /** See {@link KinesisMock#client()}. */
  public KinesisClient client() {
    return service().client();
  }
}
