package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.delta.merge.DeltaMergeResult;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change data files as lakestream's own Parquet writer writes them: a MERGE's change feed of a
 * partitioned table with every primitive type (decimals of both physical forms, float, tinyint,
 * smallint, timestamps with and without time zone, binary; nulls included) reads back exactly, one
 * file per partition, the repeating change type dictionary-encoded and the unique columns plain.
 */
class DeltaChangeDataWriterTest {
  private static final Instant T0 = Instant.parse("2026-12-07T06:00:00.123456Z");
  private static final LocalDateTime L0 = LocalDateTime.parse("2026-12-07T06:00:00.654321");

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("amount", ColumnType.decimal(12, 2))
          .column("large", ColumnType.decimal(25, 4))
          .column("score", ColumnType.DOUBLE)
          .column("ratio", ColumnType.FLOAT)
          .column("qty", ColumnType.INT)
          .column("small", ColumnType.SHORT)
          .column("tiny", ColumnType.BYTE)
          .column("flag", ColumnType.BOOLEAN)
          .column("ts", ColumnType.TIMESTAMP)
          .column("local", ColumnType.TIMESTAMP_NTZ)
          .column("day", ColumnType.DATE)
          .column("payload", ColumnType.BINARY)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .property("delta.enableChangeDataFeed", "true")
          .build();

  @TempDir Path dir;

  /** Row {@code id} as of {@code epoch} (-1: as first written). */
  private static Object[] row(long id, int epoch) {
    boolean nulls = (id + epoch) % 7 == 3;
    long v = id * 31 + epoch;
    return new Object[] {
      id,
      nulls ? null : "name-" + v + (v % 5 == 0 ? "-\u00e9\u65e5\ud83d\ude00" : ""),
      nulls ? null : BigDecimal.valueOf(v * 7 - 5_000, 2),
      nulls ? null : new BigDecimal((v % 2 == 0 ? "-" : "") + v + "12345678901.2345"),
      nulls ? null : v * 0.5,
      nulls ? null : v * 0.25f,
      nulls ? null : (int) v,
      nulls ? null : (short) (v % 30_000),
      nulls ? null : (byte) (v % 256 - 128),
      nulls ? null : v % 3 == 0,
      nulls ? null : T0.plusSeconds(v),
      nulls ? null : L0.plusSeconds(v),
      nulls ? null : LocalDate.ofEpochDay(20_000 + v % 1_000),
      nulls ? null : new byte[] {(byte) v, (byte) (v >> 8), 0, -1},
      "r" + (id % 2)
    };
  }

  @Test
  void aMergesChangeFeedOfEveryPrimitiveTypeReadsBackExactly() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaAppendCommit append = new DeltaAppendCommit(table, SCHEMA, "base");
    append.open();
    List<Object[]> base = new ArrayList<>();
    for (long id = 0; id < 3_000; id++) {
      base.add(row(id, -1));
    }
    append.commit(0, new DeltaTableWriter(table, SCHEMA).write(base));

    List<Object[]> batch = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (long id = 0; id < 3_300; id += 3) { // 1,000 updates and 100 inserts
      batch.add(row(id, 0));
      if (id < 3_000) {
        expected.add(describe(row(id, -1), "update_preimage"));
        expected.add(describe(row(id, 0), "update_postimage"));
      } else {
        expected.add(describe(row(id, 0), "insert"));
      }
    }
    DeltaMergeResult result =
        new DeltaMergeCommit(
                DeltaMerge.into(table, SCHEMA, "id")
                    .whenMatchedUpdateAll()
                    .whenNotMatchedInsertAll()
                    .build(),
                "cdf-writer-test")
            .commit(0, batch);
    assertThat(result.status()).isEqualTo(DeltaMergeResult.Status.COMMITTED);

    DeltaChangeDataFeed feed = new DeltaChangeDataFeed(table);
    long version = result.version();
    List<String> columns = feed.columnNames(version);
    int typeIndex = columns.indexOf(DeltaChangeDataWriter.CHANGE_TYPE_COLUMN);
    List<String> read = new ArrayList<>();
    for (Object[] changed : feed.read(version, version)) {
      Object[] data = new Object[SCHEMA.columns().size()];
      for (int c = 0; c < data.length; c++) {
        data[c] = changed[columns.indexOf(SCHEMA.columns().get(c).name())];
      }
      read.add(describe(data, (String) changed[typeIndex]));
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(expected);

    List<Path> changeFiles;
    try (Stream<Path> files = Files.walk(dir.resolve("t").resolve("_change_data"))) {
      changeFiles = files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
    assertThat(changeFiles).hasSize(2); // one per region
    for (Path file : changeFiles) {
      Map<String, ColumnChunkMetaData> chunks = chunks(file);
      assertThat(chunks).doesNotContainKey("region");
      assertThat(dictionary(chunks.get("_change_type"))).isTrue();
      assertThat(dictionary(chunks.get("id"))).isFalse();
      assertThat(dictionary(chunks.get("ts"))).isFalse();
      assertThat(dictionary(chunks.get("name"))).isFalse();
    }
  }

  /** The row's values (binary as its bytes) and change type, comparable as text. */
  private static String describe(Object[] row, String changeType) {
    Object[] copy = row.clone();
    for (int c = 0; c < copy.length; c++) {
      if (copy[c] instanceof byte[] bytes) {
        copy[c] = Arrays.toString(bytes);
      }
    }
    return Arrays.toString(copy) + " " + changeType;
  }

  private static Map<String, ColumnChunkMetaData> chunks(Path file) throws Exception {
    Map<String, ColumnChunkMetaData> chunks = new HashMap<>();
    try (ParquetFileReader footer =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      for (ColumnChunkMetaData chunk : footer.getFooter().getBlocks().get(0).getColumns()) {
        chunks.put(chunk.getPath().toDotString(), chunk);
      }
    }
    return chunks;
  }

  private static boolean dictionary(ColumnChunkMetaData chunk) {
    return chunk.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
        || chunk.getEncodings().contains(Encoding.RLE_DICTIONARY);
  }
}
