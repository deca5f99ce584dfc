package io.lakestream.testkit.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

class FlinkMiniClusterTest {

  @Test
  void runsJobsOnItsSlotsWithLocalCheckpointsAndCleansUp() throws Exception {
    Path checkpoints;
    try (FlinkMiniCluster cluster = FlinkMiniCluster.builder().start()) {
      assertThat(cluster.parallelism()).isEqualTo(2);
      assertThat(cluster.checkpointDirectory().getScheme()).isEqualTo("file");
      assertThat(cluster.configuration().toMap())
          .containsEntry("state.backend.type", "rocksdb")
          .containsEntry("execution.checkpointing.incremental", "true")
          .containsEntry(
              "execution.checkpointing.externalized-checkpoint-retention",
              "RETAIN_ON_CANCELLATION");
      checkpoints = Path.of(cluster.checkpointDirectory());

      // execute on an environment() runs on this cluster
      StreamExecutionEnvironment env = cluster.environment();
      List<Long> squares;
      try (CloseableIterator<Long> result =
          env.fromSequence(1, 5).map((MapFunction<Long, Long>) x -> x * x).executeAndCollect()) {
        squares = new java.util.ArrayList<>();
        result.forEachRemaining(squares::add);
      }
      assertThat(squares).containsExactlyInAnyOrder(1L, 4L, 9L, 16L, 25L);
      assertThat(cluster.miniCluster().listJobs().get()).hasSize(1);

      // a failing job fails waitForSuccess with the job's exception as cause
      StreamExecutionEnvironment failing = cluster.environment();
      failing
          .fromSequence(1, 3)
          .map(
              (MapFunction<Long, Long>)
                  x -> {
                    throw new IllegalArgumentException("boom " + x);
                  })
          .print();
      JobClient client = failing.executeAsync();
      JobID failed = client.getJobID();
      assertThatThrownBy(() -> cluster.waitForSuccess(failed, Duration.ofMinutes(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("FAILED")
          .rootCause()
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("boom ");
      assertThat(cluster.latestRetainedCheckpoint(failed)).isEmpty();
    }
    assertThat(Files.exists(checkpoints)).isFalse();
  }
}
