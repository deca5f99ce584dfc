package io.lakestream.connectors.delta.sink;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.state.Locations;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.testkit.delta.DeltaLogTxns;
import java.nio.file.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta sink under failures: a task fails mid-epoch and the committer crashes right after a
 * Delta commit (before Flink records it); the table still holds every input row exactly once, and
 * each committed epoch is one version tagged with the query's app id.
 */
class DeltaSinkExactlyOnceITCase {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  @TempDir Path dir;

  @Test
  void everyRowOnceAndOneVersionPerEpochDespiteTaskFailureAndCrashAfterCommit() throws Exception {
    QueryContext query =
        new QueryContext(
            "qid",
            "delta-it",
            "run",
            "delta-it-qid",
            dir.resolve("chk").toUri().toString(),
            false,
            false,
            OutputMode.APPEND);
    DeltaTable table = DeltaTable.forPath(Locations.absolute(dir.resolve("table").toString()));
    DeltaSinkFailureScenario.run(table, query, "delta-exactly-once");
    // Delta readers collapse a file added twice: only the log shows an epoch committed twice
    DeltaLogTxns.read(dir.resolve("table"))
        .assertEachEpochOnce()
        .assertVersionPerEpoch(
            query.appId(),
            DeltaSinkFailureScenario.checkpointLocation(query),
            DeltaSinkFailureScenario.SINK);
  }
}
