package io.lakestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark reads the Parquet data files lakestream writes itself (decimals as int32, int64 and fixed
 * bytes, negative ones too, nulls, dates, microsecond timestamps, per-column dictionary choice)
 * exactly, and its data skipping on lakestream's file statistics keeps every matching row.
 */
class DeltaParquetFilesSparkInteropTest {
  private static SparkSession spark;

  @TempDir Path dir;

  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00.123456Z");

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("category", ColumnType.STRING)
          .column("small", ColumnType.decimal(7, 2))
          .column("medium", ColumnType.decimal(15, 3))
          .column("large", ColumnType.decimal(25, 4))
          .column("ts", ColumnType.TIMESTAMP)
          .column("day", ColumnType.DATE)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  @BeforeAll
  static void startSpark() {
    spark = InteropSpark.session();
  }

  private static Object[] row(long i) {
    boolean nulls = i % 11 == 5;
    long sign = i % 2 == 0 ? 1 : -1;
    return new Object[] {
      i,
      nulls ? null : "c" + (i % 4),
      nulls ? null : BigDecimal.valueOf(sign * i * 7, 2),
      nulls ? null : BigDecimal.valueOf(sign * i * 1_000_003L, 3),
      nulls ? null : new BigDecimal(sign * i + "123456789012345.6789"),
      nulls ? null : T0.plusSeconds(i),
      nulls ? null : LocalDate.ofEpochDay(20_000 + i),
      "r" + (i % 3)
    };
  }

  private static String expected(long i) {
    Object[] r = row(i);
    StringBuilder text = new StringBuilder();
    for (Object value : r) {
      text.append(value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value));
      text.append('|');
    }
    return text.toString();
  }

  private static String show(Row r) {
    StringBuilder text = new StringBuilder();
    for (int c = 0; c < r.size(); c++) {
      Object value = r.get(c);
      if (value instanceof BigDecimal d) {
        text.append(d.toPlainString());
      } else if (value instanceof java.sql.Timestamp t) {
        text.append(t.toInstant());
      } else if (value instanceof java.sql.Date d) {
        text.append(d.toLocalDate());
      } else {
        text.append(value);
      }
      text.append('|');
    }
    return text.toString();
  }

  @Test
  void sparkReadsEveryTypeAndSkipsFilesOnlyWhereNoRowMatches() throws Exception {
    String path = dir.resolve("typed").toString();
    DeltaTable table = DeltaTable.forPath(path);
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "typed-files");
    List<String> all = new ArrayList<>();
    for (int epoch = 1; epoch <= 3; epoch++) {
      List<Object[]> rows = new ArrayList<>();
      for (long i = (epoch - 1) * 2_000L; i < epoch * 2_000L; i++) {
        rows.add(row(i));
        all.add(expected(i));
      }
      commit.commit(epoch, writer.write(rows));
    }

    String columns = "id, category, small, medium, large, ts, day, region";
    List<String> read =
        spark
            .read()
            .format("delta")
            .load(path)
            .selectExpr(columns.split(", "))
            .collectAsList()
            .stream()
            .map(DeltaParquetFilesSparkInteropTest::show)
            .toList();
    assertThat(read).containsExactlyInAnyOrderElementsOf(all);

    // data skipping on the files' min/max: each predicate must keep exactly its rows
    spark.read().format("delta").load(path).createOrReplaceTempView("typed");
    assertThat(spark.sql("SELECT id FROM typed WHERE id = 4321").collectAsList()).hasSize(1);
    assertThat(
            spark
                .sql(
                    "SELECT id FROM typed WHERE large = CAST('-4321123456789012345.6789' AS"
                        + " DECIMAL(25,4))")
                .collectAsList())
        .hasSize(1);
    assertThat(
            spark
                .sql("SELECT id FROM typed WHERE ts = TIMESTAMP'2026-11-29 10:00:10.123456Z'")
                .collectAsList())
        .hasSize(1);
    assertThat(spark.sql("SELECT id FROM typed WHERE category = 'c3'").count())
        .isEqualTo(all.stream().filter(r -> r.split("\\|")[1].equals("c3")).count());
    assertThat(spark.sql("SELECT id FROM typed WHERE small IS NULL").count())
        .isEqualTo(all.stream().filter(r -> r.split("\\|")[2].equals("null")).count());
  }
}
