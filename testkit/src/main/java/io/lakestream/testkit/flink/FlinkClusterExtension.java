package io.lakestream.testkit.flink;

import io.lakestream.testkit.ServiceExtension;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs a {@link FlinkCluster} (separate JobManager and TaskManager JVMs) for
 * the tests of a class ({@code static} field) or for each test (instance field).
 *
 * <pre>{@code
 * @RegisterExtension @Order(1) static final S3ServerExtension S3 = new S3ServerExtension();
 * @RegisterExtension @Order(2)
 * static final FlinkClusterExtension FLINK =
 *     new FlinkClusterExtension(() -> FlinkCluster.builder().configuration(S3.flinkConfiguration()));
 *
 * @Test void runs() {
 *   FlinkCommand run = FLINK.cluster().startFlink("run", "-d", "app.jar", ...);
 *   JobID job = run.awaitJobId(Duration.ofMinutes(1));
 *   FLINK.cluster().awaitCompletedCheckpoints(job, 2, Duration.ofMinutes(1));
 * }
 * }</pre>
 *
 * <p>The builder is called when JUnit starts the cluster, so it can use services started by
 * extensions ordered before it. See {@link ServiceExtension} for the life cycle and {@link
 * FlinkCluster} for failures.
 */
public final class FlinkClusterExtension extends ServiceExtension<FlinkCluster> {

  private final Supplier<FlinkCluster.Builder> builder;

  /** A cluster with the defaults of {@link FlinkCluster#builder()}. */
  public FlinkClusterExtension() {
    this(FlinkCluster::builder);
  }

  /** A cluster built by {@code builder}, which is called when the cluster starts. */
  public FlinkClusterExtension(Supplier<FlinkCluster.Builder> builder) {
    this.builder = builder;
  }

  @Override
  protected FlinkCluster start(ExtensionContext context) {
    return builder.get().start();
  }

  /** The running cluster; see {@link #service()}. */
  public FlinkCluster cluster() {
    return service();
  }
}
