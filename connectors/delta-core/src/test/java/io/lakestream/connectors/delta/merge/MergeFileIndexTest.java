package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.maintenance.DeltaOptimize;
import io.lakestream.connectors.delta.maintenance.DeltaOptimizeResult;
import io.lakestream.connectors.schema.ColumnType;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a MERGE keeps across epochs ({@link MergeFileIndex}) equal a fresh listing of every
 * version: after appends, deletion vector and copy-on-write MERGEs, OPTIMIZE and a concurrent
 * writer's commit; and it lists afresh when it cannot follow the log.
 */
class MergeFileIndexTest {
  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .property("delta.enableChangeDataFeed", "true")
          .property("delta.enableDeletionVectors", "true")
          .build();

  private static DeltaMerge upsert(DeltaTable table) {
    return DeltaMerge.into(table, SCHEMA, "id")
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .build();
  }

  private static List<Object[]> rows(long from, long to, String name) {
    List<Object[]> out = new ArrayList<>();
    for (long id = from; id < to; id++) {
      out.add(new Object[] {id, name + id, "r" + (id % 2)});
    }
    return out;
  }

  /** The view of the latest version equals Kernel's listing and txn version of it. */
  private static void assertFresh(
      DeltaTable table, DeltaMergeCommit commit, String appId, boolean incremental) {
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    MergeFileIndex.View view = commit.filesAt(snapshot);
    assertThat(view.version()).isEqualTo(snapshot.getVersion());
    assertThat(view.incremental()).as("followed the log").isEqualTo(incremental);
    assertThat(new HashSet<>(view.files()))
        .as("files of version %d", snapshot.getVersion())
        .isEqualTo(new HashSet<>(MergePlanner.files(table.engine(), snapshot)))
        .hasSize(view.files().size());
    assertThat(view.txn()).isEqualTo(snapshot.getLatestTransactionVersion(table.engine(), appId));
  }

  @Test
  void followsAppendsMergesOptimizeAndAConcurrentWriterAsAFreshListingWould() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    DeltaMergeCommit onRead = new DeltaMergeCommit(upsert(table), "app");
    DeltaMergeCommit other =
        new DeltaMergeCommit(upsert(table), "other").withDeletionVectors(false);
    DeltaAppendCommit append = new DeltaAppendCommit(table, SCHEMA, "append");
    onRead.commit(0, rows(0, 40, "a")); // creates the table; its first view is a fresh listing
    assertFresh(table, onRead, "app", true);

    append.open();
    append.commit(0, new DeltaTableWriter(table, SCHEMA).write(rows(40, 60, "b")));
    assertFresh(table, onRead, "app", true);
    onRead.commit(1, rows(10, 50, "c")); // vectors on files of both commits, inserts none
    assertFresh(table, onRead, "app", true);
    onRead.commit(2, rows(30, 70, "d")); // a second vector on a file: remove and add again
    assertFresh(table, onRead, "app", true);
    other.commit(0, rows(0, 20, "e")); // another writer rewrites files copy-on-write
    assertFresh(table, onRead, "app", true);
    DeltaOptimizeResult compacted = DeltaOptimize.forTable(table).build().run();
    assertThat(compacted.status()).isEqualTo(DeltaOptimizeResult.Status.COMMITTED);
    assertFresh(table, onRead, "app", true);
    onRead.commit(3, rows(5, 15, "f"));
    assertFresh(table, onRead, "app", true);
    assertThat(onRead.commit(3, rows(5, 15, "f")).status())
        .as("a replayed epoch is seen through the followed txn")
        .isEqualTo(DeltaMergeResult.Status.ALREADY_COMMITTED);

    // a checkpoint in between changes nothing: the commits are still read
    Table.forPath(table.engine(), table.path())
        .checkpoint(table.engine(), table.latestSnapshot().orElseThrow().getVersion());
    onRead.commit(4, rows(60, 80, "g"));
    assertFresh(table, onRead, "app", true);
  }

  @Test
  void listsAfreshOnAGapAMetadataChangeOrAnUnknownRemove() throws IOException {
    DeltaTable table = DeltaTable.forPath(dir.resolve("gap").toUri().toString());
    DeltaMergeCommit commit = new DeltaMergeCommit(upsert(table), "app");
    commit.commit(0, rows(0, 30, "a"));
    Snapshot first = table.latestSnapshot().orElseThrow();
    commit.commit(1, rows(10, 40, "b"));
    Snapshot second = table.latestSnapshot().orElseThrow();
    String root = Table.forPath(table.engine(), table.path()).getPath(table.engine());
    Path log = Path.of(java.net.URI.create(table.path())).resolve("_delta_log");
    MergeFileIndex.CommitReader real =
        v -> Files.readAllLines(log.resolve(String.format("%020d.json", v)));

    for (MergeFileIndex.CommitReader broken :
        List.<MergeFileIndex.CommitReader>of(
            v -> {
              throw new FileNotFoundException("commit " + v + " cleaned up");
            },
            v -> with(real.read(v), "{\"metaData\":{\"id\":\"x\"}}"),
            v -> with(real.read(v), "{\"protocol\":{\"minReaderVersion\":3}}"),
            v -> with(real.read(v), "{\"remove\":{\"path\":\"gone.parquet\",\"dataChange\":true}}"),
            v -> with(real.read(v), "{\"someFutureAction\":{}}"))) {
      MergeFileIndex index = new MergeFileIndex("app");
      assertThat(index.at(table.engine(), first, root, real).incremental()).isFalse();
      MergeFileIndex.View view = index.at(table.engine(), second, root, broken);
      assertThat(view.incremental()).as("could not follow the log").isFalse();
      assertThat(new HashSet<>(view.files()))
          .isEqualTo(new HashSet<>(MergePlanner.files(table.engine(), second)));
      assertThat(view.txn()).contains(1L);
    }

    MergeFileIndex index = new MergeFileIndex("app");
    index.at(table.engine(), second, root, real);
    assertThat(index.at(table.engine(), first, root, real).incremental())
        .as("an older snapshot is listed afresh")
        .isFalse();
    Set<TargetFile> followed = new HashSet<>(index.at(table.engine(), second, root, real).files());
    assertThat(followed).isEqualTo(new HashSet<>(MergePlanner.files(table.engine(), second)));
  }

  private static List<String> with(List<String> lines, String extra) {
    List<String> out = new ArrayList<>(lines);
    out.add(extra);
    return out;
  }
}
