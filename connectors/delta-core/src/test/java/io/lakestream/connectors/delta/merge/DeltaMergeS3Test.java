package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaCommitConflictException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MERGE commits on S3 ({@code s3a://} against the real S3 test server): the version file goes
 * through the conditional-put log store, so a writer that lost the race for a version sees it
 * taken, rebases (no conflict) or fails (conflict), and the winner's commit stands.
 */
class DeltaMergeS3Test {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("merge-s3");

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .property("delta.enableChangeDataFeed", "true")
          .build();

  private static List<Object[]> rows(Object[]... rows) {
    return Arrays.asList(rows);
  }

  private static Map<Long, String> contents(DeltaTable table) throws IOException {
    Map<Long, String> out = new TreeMap<>();
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      assertThat(out.put((Long) row[0], (String) row[1])).isNull();
    }
    return out;
  }

  @Test
  void racesOnS3RebaseOrFailAndNeverLoseAWrite() throws IOException {
    DeltaTable table =
        DeltaTable.forPath(
            S3aSettings.uri(S3.service(), "tables/merged"), S3aSettings.of(S3.service()));
    DeltaMergeCommit merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, SCHEMA, "id")
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll()
                .build(),
            "s3-merge");
    merge.commit(0, rows(new Object[] {1L, "a"}, new Object[] {2L, "b"}));

    // non-conflicting append wins the next version: the merge rebases onto it
    PreparedMerge update = merge.prepare(1, rows(new Object[] {1L, "a1"}));
    new DeltaAppendCommit(table, SCHEMA, "appender")
        .commit(0, new DeltaTableWriter(table, SCHEMA).write(rows(new Object[] {50L, "x"})));
    DeltaMergeResult rebased = merge.commitPrepared(update);
    assertThat(rebased.attempts()).isEqualTo(2);
    assertThat(contents(table))
        .containsExactly(Map.entry(1L, "a1"), Map.entry(2L, "b"), Map.entry(50L, "x"));

    // a conflicting append (a key the merge inserts) wins: the merge fails, the append stands
    PreparedMerge insert = merge.prepare(2, rows(new Object[] {60L, "mine"}));
    new DeltaAppendCommit(table, SCHEMA, "appender")
        .commit(1, new DeltaTableWriter(table, SCHEMA).write(rows(new Object[] {60L, "theirs"})));
    assertThatThrownBy(() -> merge.commitPrepared(insert))
        .isInstanceOf(DeltaCommitConflictException.class)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_CONCURRENT_APPEND");
    assertThat(contents(table)).containsEntry(60L, "theirs");
    merge.commit(2, rows(new Object[] {60L, "mine"}));
    assertThat(contents(table)).containsEntry(60L, "mine").hasSize(4);

    // every version file is on S3 once, and the MERGE versions carry cdc files there
    List<String> cdcKeys = S3.service().keys("tables/merged/_change_data/");
    assertThat(cdcKeys).isNotEmpty();
    String log = "tables/merged/_delta_log/";
    long cdcActions =
        S3.service().keys(log).stream()
            .filter(k -> k.endsWith(".json"))
            .flatMap(k -> new String(S3.service().read(k), StandardCharsets.UTF_8).lines())
            .filter(l -> l.startsWith("{\"cdc\""))
            .count();
    assertThat(cdcActions).isEqualTo(cdcKeys.size());
  }
}
