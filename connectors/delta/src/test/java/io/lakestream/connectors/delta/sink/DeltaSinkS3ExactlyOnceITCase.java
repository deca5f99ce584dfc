package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta sink writing a table on S3 ({@code s3a://}, data files and put-if-absent commit files
 * through S3A, against the real S3 test server) under failures: a task fails mid-epoch and the
 * committer crashes right after a Delta commit (before Flink records it); the table still holds
 * every input row exactly once, and each epoch is one version tagged with the query's app id.
 */
class DeltaSinkS3ExactlyOnceITCase {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .setConfiguration(clusterConfiguration())
              .build());

  /**
   * S3A's thread pool lives in Hadoop's JVM-wide FileSystem cache, and its threads inherit the
   * context class loader of the task thread that started them; after the job ends, the checks below
   * list the table through those threads, whose (closed) job class loader Flink's leak check would
   * refuse. See README-s3.md ("Session clusters").
   */
  static Configuration clusterConfiguration() {
    Configuration conf = new Configuration();
    conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    return conf;
  }

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("sink-exactly-once");

  @TempDir Path dir;

  @Test
  void everyRowOnceOnS3DespiteTaskFailureAndCrashAfterCommit() throws Exception {
    String tablePath = S3aSettings.uri(S3.service(), "tables/sink");
    QueryContext query =
        new QueryContext(
            "qid",
            "delta-s3-it",
            "run",
            "delta-s3-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable table = DeltaTable.forPath(tablePath, S3aSettings.of(S3.service()));
    long lastEpoch = DeltaSinkFailureScenario.run(table, query, "delta-s3-exactly-once");

    // Each version after the create holds one epoch of this query, none twice; all on S3.
    String log = "tables/sink/_delta_log/";
    List<String> commitFiles =
        S3.service().keys(log).stream()
            .filter(k -> k.substring(log.length()).matches("\\d{20}\\.json"))
            .collect(Collectors.toList());
    List<Long> epochs = new ArrayList<>();
    for (String key : commitFiles.subList(1, commitFiles.size())) {
      String commit = new String(S3.service().read(key), StandardCharsets.UTF_8);
      List<String> txns =
          commit.lines().filter(l -> l.startsWith("{\"txn\"")).collect(Collectors.toList());
      assertThat(txns).as(key).hasSize(1).allSatisfy(t -> assertThat(t).contains(query.appId()));
      epochs.add(Long.parseLong(txns.get(0).replaceAll(".*\"version\":(\\d+).*", "$1")));
    }
    assertThat(epochs).doesNotHaveDuplicates().isSorted().contains(lastEpoch);
    assertThat(commitFiles).hasSize((int) table.latestSnapshot().orElseThrow().getVersion() + 1);
    DeltaLogTxns.read(S3.service(), "tables/sink")
        .assertEachEpochOnce()
        .assertVersionPerEpoch(
            query.appId(),
            DeltaSinkFailureScenario.checkpointLocation(query),
            DeltaSinkFailureScenario.SINK);
  }
}
