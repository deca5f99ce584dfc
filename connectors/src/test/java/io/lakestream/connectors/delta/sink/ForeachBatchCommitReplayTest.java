package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaColumnType;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore can hand the foreachBatch committer an epoch again after its staged files were cleaned
 * up (the checkpoint was taken before the epoch's commit notification arrived): it is reported as
 * already committed, without calling the function, instead of failing on the missing files.
 */
class ForeachBatchCommitReplayTest {
  static final List<Long> CALLS = new ArrayList<>();

  @TempDir Path dir;

  @Test
  void anEpochWhoseStagedFilesWereCleanedUpIsAlreadyCommitted() throws Exception {
    DeltaTableSchema schema =
        DeltaTableSchema.builder().column("id", DeltaColumnType.LONG, false).build();
    DeltaTable staging = DeltaTable.forPath(dir.resolve("staging").toUri().toString());
    ForeachBatchCommit commit =
        new ForeachBatchCommit(
            staging, schema, (epoch, rows) -> CALLS.add(epoch * 100 + rows.size()));
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(staging, schema);
    List<DeltaWrittenFile> first = writer.write(List.<Object[]>of(new Object[] {1L}));
    List<DeltaWrittenFile> second =
        writer.write(List.<Object[]>of(new Object[] {2L}, new Object[] {3L}));

    assertThat(commit.commit(1, first).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(commit.commit(2, second).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    // restored from a checkpoint that still lists epoch 1 as pending: its files are gone
    EpochCommitOutcome replay = commit.commit(1, first);

    assertThat(replay.status()).isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(CALLS).containsExactly(101L, 202L);
    // the last epoch's files stay until the next commit, so its replay runs the function again
    assertThat(commit.commit(2, second).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(CALLS).containsExactly(101L, 202L, 202L);
  }
}
