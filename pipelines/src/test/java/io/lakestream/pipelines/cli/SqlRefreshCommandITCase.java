package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream sql refresh <table> -f <file>} refreshes one streaming table of a script
 * embedded: the table created in the script's Delta catalog with its checkpoint under it, the
 * script's other streaming table left alone; a name the script has no streaming table of is a usage
 * error (exit 2) before anything runs.
 */
class SqlRefreshCommandITCase {
  private static final DeltaTableSchema CLICKS =
      DeltaTableSchema.builder()
          .column("ad", ColumnType.STRING, false)
          .column("cost", ColumnType.LONG)
          .build();

  @TempDir Path dir;

  private List<String> ads(String table) {
    List<String> ads = new ArrayList<>();
    Path path = dir.resolve("lake/ads/" + table);
    for (Object[] row :
        new DeltaTableReader(DeltaTable.forPath(path.toUri().toString())).readLatest()) {
      ads.add((String) row[0]);
    }
    ads.sort(null);
    return ads;
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void refreshesTheNamedStreamingTable() throws Exception {
    DeltaTable clicks = DeltaTable.forPath(dir.resolve("lake/ads/clicks").toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(clicks, CLICKS, "producer");
    commit.open();
    commit.commit(
        1,
        new DeltaTableWriter(clicks, CLICKS)
            .write(
                List.of(new Object[] {"a", 5L}, new Object[] {"b", 50L}, new Object[] {"c", 70L})));
    Path script =
        Files.writeString(
            dir.resolve("ads.sql"),
            """
            CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = '%s', 'default-database' = 'ads');
            USE CATALOG lake;
            CREATE OR REFRESH STREAMING TABLE costly SCHEDULE EVERY 1 HOUR
            AS SELECT ad, cost FROM STREAM(clicks) WHERE cost >= 50;
            CREATE OR REFRESH STREAMING TABLE cheap AS SELECT ad FROM STREAM(clicks) WHERE cost < 50;
            """
                .formatted(dir.resolve("lake").toUri()));

    int code =
        LakestreamCli.execute(
            "sql", "refresh", "costly", "-f", script.toString(), "--parallelism", "1");

    assertThat(code).isZero();
    assertThat(ads("costly")).containsExactly("b", "c");
    assertThat(dir.resolve("lake/ads/costly/_checkpoints/streaming_table/metadata")).exists();
    assertThat(dir.resolve("lake/ads/cheap")).doesNotExist();
    assertThat(LakestreamCli.execute("sql", "refresh", "orders", "-f", script.toString()))
        .as("no streaming table of that name")
        .isEqualTo(2);
  }
}
