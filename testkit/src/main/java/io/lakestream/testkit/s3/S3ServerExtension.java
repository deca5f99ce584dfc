package io.lakestream.testkit.s3;

import io.lakestream.testkit.ServiceExtension;
import java.net.URI;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs an {@link S3Server} (S3Proxy on 127.0.0.1, filesystem storage, one
 * bucket) for the tests of a class ({@code static} field) or for each test (instance field):
 *
 * <pre>{@code
 * @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension();
 *
 * @Test void writes() {
 *   S3.initializeFlinkFileSystems(); // s3:// paths in this JVM now go to the server
 *   Path table = new Path(S3.uri("tables/t1").toString());
 * }
 * }</pre>
 *
 * <p>The server is stopped and its storage deleted after the tests. See {@link ServiceExtension}
 * for the life cycle.
 */
public final class S3ServerExtension extends ServiceExtension<S3Server> {

  private final String bucket;

  /** A server with the bucket {@value S3Server#DEFAULT_BUCKET}. */
  public S3ServerExtension() {
    this(S3Server.DEFAULT_BUCKET);
  }

  /** A server with the given bucket. */
  public S3ServerExtension(String bucket) {
    this.bucket = bucket;
  }

  @Override
  protected S3Server start(ExtensionContext context) {
    return S3Server.start(bucket);
  }

  /** The running server. */
  public S3Server server() {
    return service();
  }

  /** See {@link S3Server#endpoint()}. */
  public URI endpoint() {
    return service().endpoint();
  }

  /** See {@link S3Server#bucket()}. */
  public String bucket() {
    return service().bucket();
  }

  /** See {@link S3Server#accessKey()}. */
  public String accessKey() {
    return service().accessKey();
  }

  /** See {@link S3Server#secretKey()}. */
  public String secretKey() {
    return service().secretKey();
  }

  /** See {@link S3Server#uri(String)}. */
  public URI uri(String path) {
    return service().uri(path);
  }

  /** See {@link S3Server#flinkConfiguration()}. */
  public Configuration flinkConfiguration() {
    return service().flinkConfiguration();
  }

  /** See {@link S3Server#initializeFlinkFileSystems()}. */
  public void initializeFlinkFileSystems() {
    service().initializeFlinkFileSystems();
  }

  /** See {@link S3Server#keys(String)}. */
  public List<String> keys(String prefix) {
    return service().keys(prefix);
  }
}
