package io.lakestream.testkit.kinesis;

import io.lakestream.testkit.ServiceExtension;
import java.net.URI;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * JUnit 5 extension that runs {@link Kinesalite} for the tests of a class ({@code static} field) or
 * for each test (instance field):
 *
 * <pre>{@code
 * @RegisterExtension static final KinesaliteExtension KINESIS = new KinesaliteExtension();
 * }</pre>
 *
 * <p>See {@link io.lakestream.testkit.ServiceExtension} for the life cycle.
 */
public final class KinesaliteExtension extends ServiceExtension<Kinesalite> {

  @Override
  protected Kinesalite start(ExtensionContext context) throws Exception {
    return Kinesalite.start();
  }

  /** See {@link Kinesalite#endpoint()}. */
  public URI endpoint() {
    return service().endpoint();
  }

  /** See {@link Kinesalite#client()}. */
  public KinesisClient client() {
    return service().client();
  }
}
