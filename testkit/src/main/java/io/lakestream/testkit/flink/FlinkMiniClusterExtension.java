package io.lakestream.testkit.flink;

import io.lakestream.testkit.ServiceExtension;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.net.URI;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs a {@link FlinkMiniCluster} (RocksDB, incremental checkpoints,
 * retained on cancellation) for the tests of a class ({@code static} field) or for each test
 * (instance field).
 *
 * <pre>{@code
 * @RegisterExtension @Order(1) static final S3ServerExtension S3 = new S3ServerExtension();
 * @RegisterExtension @Order(2)
 * static final FlinkMiniClusterExtension FLINK = FlinkMiniClusterExtension.checkpointingTo(S3, "chk");
 *
 * @Test void restores() {
 *   StreamExecutionEnvironment env = FLINK.environment();
 *   ... build the pipeline ...
 *   JobID job = FLINK.submit(env);
 *   FLINK.cluster().waitForCompletedCheckpoints(job, 2, Duration.ofMinutes(1));
 * }
 * }</pre>
 *
 * <p>The cluster is configured when JUnit starts it (so it can use services started by extensions
 * ordered before it) and stopped after the tests. See {@link ServiceExtension} for the life cycle
 * and {@link FlinkMiniCluster} for failures.
 */
public final class FlinkMiniClusterExtension extends ServiceExtension<FlinkMiniCluster> {

  private final Supplier<FlinkMiniCluster.Builder> builder;

  /** A cluster with the defaults of {@link FlinkMiniCluster#builder()} (local checkpoints). */
  public FlinkMiniClusterExtension() {
    this(FlinkMiniCluster::builder);
  }

  /** A cluster built by {@code builder}, which is called when the cluster starts. */
  public FlinkMiniClusterExtension(Supplier<FlinkMiniCluster.Builder> builder) {
    this.builder = builder;
  }

  /**
   * A cluster that checkpoints to {@code s3://<bucket>/<path>} on the server of {@code s3}, which
   * must be registered and ordered (with {@code @Order}) before this extension.
   */
  public static FlinkMiniClusterExtension checkpointingTo(S3ServerExtension s3, String path) {
    return new FlinkMiniClusterExtension(
        () ->
            FlinkMiniCluster.builder()
                .configuration(s3.flinkConfiguration())
                .checkpointDirectory(s3.uri(path)));
  }

  @Override
  protected FlinkMiniCluster start(ExtensionContext context) {
    return builder.get().start();
  }

  /** The running cluster. */
  public FlinkMiniCluster cluster() {
    return service();
  }

  /** See {@link FlinkMiniCluster#environment()}. */
  public StreamExecutionEnvironment environment() {
    return service().environment();
  }

  /** See {@link FlinkMiniCluster#submit(StreamExecutionEnvironment)}. */
  public JobID submit(StreamExecutionEnvironment env) {
    return service().submit(env);
  }

  /** See {@link FlinkMiniCluster#submit(StreamExecutionEnvironment, URI)}. */
  public JobID submit(StreamExecutionEnvironment env, URI restoreFrom) {
    return service().submit(env, restoreFrom);
  }
}
