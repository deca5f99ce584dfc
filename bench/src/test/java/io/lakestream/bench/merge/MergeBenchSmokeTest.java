package io.lakestream.bench.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.BenchRegistry;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge bench's lakestream side on a small table (50k rows, 2 epochs of 5k upserts; the Spark
 * side needs {@code -Pspark-bench} and runs only in {@code bin/bench merge}): the same tables and
 * batches as the bench, merged through {@link LakestreamMergeMain#run}; the merged table must equal
 * the reference model and the change data feed must hold each batch's inserts and update images.
 * The checks must catch a table that differs from the model, the same table at 4x size must touch
 * the same number of files, and the model's counts must be what the batches say. {@code merge-dv}:
 * on a table with deletion vectors the same batches are merged on read (no row copied, vectors in
 * the log), equal to the model, and each mode's check refuses the other mode's epochs.
 */
class MergeBenchSmokeTest {
  private static final MergeWorkload SMALL = new MergeWorkload(50_000, 5_000, 2, 5_000);

  @TempDir Path dir;

  @Test
  void mergedTableEqualsTheModelAndTheChecksCatchADifference() throws Exception {
    Path source = dir.resolve("source");
    MergeTables.writeBatches(SMALL, source);
    MergeTables.writeBase(SMALL, dir.resolve("base"));
    Path tablePath = dir.resolve("table");
    MergeTables.copy(dir.resolve("base"), tablePath);

    List<EpochTiming> epochs =
        LakestreamMergeMain.run(SMALL, tablePath.toString(), source.toString());

    assertThat(epochs).hasSize(2);
    for (EpochTiming e : epochs) {
      assertThat(e.updated()).isEqualTo(SMALL.updatesAndInserts(e.epoch())[0]);
      assertThat(e.inserted()).isEqualTo(SMALL.updatesAndInserts(e.epoch())[1]);
      assertThat(e.filesInTable()).isGreaterThanOrEqualTo(10);
      // 4,000 keys from a window of 16,000: at most 5 of the 10 initial files can hold them
      assertThat(e.filesRead()).isBetween(1L, 5L);
      assertThat(e.filesRemoved()).isEqualTo(e.filesRead());
      assertThat(e.changeFiles()).isPositive();
      assertThat(EpochTiming.parse(e.toLine())).isEqualTo(e);
    }
    assertThat(SMALL.updatesAndInserts(0)).containsExactly(4_000, 1_000);
    DeltaTable table = DeltaTable.forPath(tablePath.toString());
    assertThat(MergeTableCheck.verify(SMALL, table)).isPositive();
    LakestreamMergeMain.checkChangeFeed(SMALL, table, epochs);

    // A table one row off the model fails the check, and its change feed no longer matches.
    new DeltaMergeCommit(
            DeltaMerge.into(table, MergeWorkload.schema(), "id").whenMatchedUpdateAll().build(),
            "tamper")
        .commit(0, List.<Object[]>of(MergeWorkload.batchRow(7, 3)));
    assertThatThrownBy(() -> MergeTableCheck.verify(SMALL, table))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("key 3 holds");
    assertThatThrownBy(() -> LakestreamMergeMain.checkChangeFeed(SMALL, table, epochs))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("change data feed");
    // The untouched copy of the initial table misses both epochs.
    assertThatThrownBy(
            () -> MergeTableCheck.verify(SMALL, DeltaTable.forPath(dir.resolve("base").toString())))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theSameBatchesIntoATableFourTimesAsLargeTouchTheSameFiles() throws Exception {
    MergeWorkload small = new MergeWorkload(20_000, 2_000, 2, 2_000);
    MergeWorkload big = small.withBaseRows(80_000);
    Path source = dir.resolve("source");
    MergeTables.writeBatches(small, source);
    MergeTables.writeBase(big, dir.resolve("big"));

    List<EpochTiming> epochs =
        LakestreamMergeMain.run(big, dir.resolve("big").toString(), source.toString());

    assertThat(epochs).allSatisfy(e -> assertThat(e.filesInTable()).isGreaterThanOrEqualTo(40));
    // 1,600 keys from a window of 6,400 in files of 2,000 keys, as in the 4x smaller table
    assertThat(epochs).allSatisfy(e -> assertThat(e.filesRead()).isBetween(1L, 5L));
    assertThat(MergeTableCheck.verify(big, DeltaTable.forPath(dir.resolve("big").toString())))
        .isPositive();
  }

  @Test
  void mergeDvMergesOnReadEqualToTheModelAndRefusesCopyOnWriteEpochs() throws Exception {
    assertThat(BenchRegistry.standard().find("merge-dv")).isPresent();
    Path source = dir.resolve("source");
    MergeTables.writeBatches(SMALL, source);
    MergeTables.writeBase(SMALL, dir.resolve("base"), MergeMode.DELETION_VECTORS);
    Path dvPath = dir.resolve("dv");
    Path cowPath = dir.resolve("cow");
    MergeTables.copy(dir.resolve("base"), dvPath);
    MergeTables.copy(dir.resolve("base"), cowPath);

    List<EpochTiming> dv =
        LakestreamMergeMain.run(
            SMALL, dvPath.toString(), source.toString(), MergeMode.DELETION_VECTORS);
    List<EpochTiming> cow =
        LakestreamMergeMain.run(
            SMALL, cowPath.toString(), source.toString(), MergeMode.COPY_ON_WRITE);

    assertThat(dv).hasSize(2);
    for (EpochTiming e : dv) {
      assertThat(e.updated()).isEqualTo(SMALL.updatesAndInserts(e.epoch())[0]);
      assertThat(e.inserted()).isEqualTo(SMALL.updatesAndInserts(e.epoch())[1]);
      assertThat(e.copied()).isZero();
      assertThat(e.filesRemoved()).isEqualTo(e.filesRead()).isPositive();
      MergeMode.DELETION_VECTORS.check("ours", e);
      EpochTiming copyOnWrite = cow.get(e.epoch());
      assertThat(copyOnWrite.copied()).isPositive();
      MergeMode.COPY_ON_WRITE.check("ours", copyOnWrite);
      assertThatThrownBy(() -> MergeMode.DELETION_VECTORS.check("ours", copyOnWrite))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("did not MERGE with deletion vectors");
      assertThatThrownBy(() -> MergeMode.COPY_ON_WRITE.check("ours", e))
          .isInstanceOf(IllegalStateException.class);
    }
    String lastCommit =
        Files.readString(dvPath.resolve("_delta_log").resolve(String.format("%020d.json", 2)));
    assertThat(lastCommit).contains("\"deletionVector\"");
    DeltaTable table = DeltaTable.forPath(dvPath.toString());
    MergeTableCheck.verify(SMALL, table);
    LakestreamMergeMain.checkChangeFeed(SMALL, table, dv);
    MergeTableCheck.verify(SMALL, DeltaTable.forPath(cowPath.toString()));

    // A row off the model, written with a deletion vector, fails the check.
    new DeltaMergeCommit(
            DeltaMerge.into(table, MergeWorkload.schema(MergeMode.DELETION_VECTORS), "id")
                .whenMatchedUpdateAll()
                .build(),
            "tamper")
        .commit(0, List.<Object[]>of(MergeWorkload.batchRow(7, 3)));
    assertThatThrownBy(() -> MergeTableCheck.verify(SMALL, table))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("key 3 holds");
  }
}
