package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.DeltaWrittenFile;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.state.Locations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restored snapshot may list an epoch whose staged files the commit of a later epoch already
 * deleted (both committed by one notification after a stop-with-savepoint): the replay reports it
 * as already committed and does not call the function again.
 */
class ForeachBatchCommitTest {
  static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder().column("id", ColumnType.LONG, false).build();
  static final List<Long> CALLS = new ArrayList<>();

  @TempDir Path dir;

  @Test
  void anEpochWhoseStagedFilesWereDeletedIsAlreadyProcessed() throws Exception {
    CALLS.clear();
    DeltaTable staging = DeltaTable.forPath(Locations.absolute(dir.resolve("staging").toString()));
    ForeachBatchCommit commit =
        new ForeachBatchCommit(staging, SCHEMA, (epoch, rows) -> CALLS.add(epoch));
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(staging, SCHEMA);
    List<DeltaWrittenFile> epoch1 = writer.write(List.<Object[]>of(new Object[] {1L}));
    List<DeltaWrittenFile> epoch2 = writer.write(List.<Object[]>of(new Object[] {2L}));

    assertThat(commit.commit(1, epoch1).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(commit.commit(2, epoch2).status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);

    // After a restore: a new committer replays both epochs; epoch 1's files are gone.
    ForeachBatchCommit restored =
        new ForeachBatchCommit(staging, SCHEMA, (epoch, rows) -> CALLS.add(epoch));
    restored.open();
    assertThat(restored.commit(1, epoch1).status())
        .isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(restored.commit(2, epoch2).status())
        .as("epoch 2's files are kept: the function runs again and must skip it itself")
        .isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(CALLS).containsExactly(1L, 2L, 2L);
  }
}
