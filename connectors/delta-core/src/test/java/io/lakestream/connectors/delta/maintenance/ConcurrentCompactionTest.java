package io.lakestream.connectors.delta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OPTIMIZE running over and over in one thread while another thread commits: streaming appends,
 * then MERGE upserts. No commit is lost and no row is lost or doubled: the table ends equal to the
 * model of what the writer committed, row for row.
 */
class ConcurrentCompactionTest {
  private static final DeltaTableSchema ACCOUNTS =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("balance", ColumnType.LONG)
          .column("p", ColumnType.STRING)
          .partitionedBy("p")
          .build();

  @TempDir Path dir;

  @Test
  void appendsAndMergesBesideARunningCompactionLoseNothing() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    TreeMap<Long, Long> model = new TreeMap<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService compactor = Executors.newSingleThreadExecutor();
    Future<Integer> compactions;
    try {
      DeltaAppendCommit append = new DeltaAppendCommit(table, ACCOUNTS, "appender");
      append.open();
      compactions = compactor.submit(() -> compactWhile(table, writing));
      for (long epoch = 1; epoch <= 40; epoch++) {
        List<Object[]> rows = new ArrayList<>();
        for (long id = epoch * 3; id < epoch * 3 + 3; id++) {
          rows.add(new Object[] {id, id, "p" + (id % 2)});
          model.put(id, id);
        }
        append.commit(epoch, new DeltaTableWriter(table, ACCOUNTS).write(rows));
      }
      DeltaMergeCommit merge =
          new DeltaMergeCommit(
              DeltaMerge.into(table, ACCOUNTS, "id")
                  .whenMatchedUpdateAll()
                  .whenNotMatchedInsertAll()
                  .build(),
              "upserter");
      for (long epoch = 1; epoch <= 15; epoch++) {
        List<Object[]> rows = new ArrayList<>();
        for (long id = epoch * 7; id < epoch * 7 + 4; id++) {
          rows.add(new Object[] {id, -epoch, "p" + (id % 2)});
          model.put(id, -epoch);
        }
        merge.commit(epoch, rows);
      }
    } finally {
      writing.set(false);
      compactor.shutdown();
    }
    assertThat(compactions.get()).as("compactions committed beside the writer").isPositive();
    TreeMap<Long, Long> actual = new TreeMap<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      assertThat(actual.put((Long) row[0], (Long) row[1])).as("id %s twice", row[0]).isNull();
    }
    assertThat(actual).isEqualTo(model);
  }

  private static int compactWhile(DeltaTable table, AtomicBoolean writing) throws Exception {
    int committed = 0;
    while (writing.get()) {
      if (table.latestSnapshot().isPresent()
          && DeltaOptimize.forTable(table).build().run().status()
              == DeltaOptimizeResult.Status.COMMITTED) {
        committed++;
      }
      Thread.sleep(10);
    }
    return committed;
  }
}
