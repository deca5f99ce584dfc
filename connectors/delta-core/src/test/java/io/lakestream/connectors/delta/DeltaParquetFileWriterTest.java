package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lakestream's own Parquet data-file writer: decimals in each physical form (int32, int64, fixed
 * bytes; negative too), nulls, dates and timestamps read back exactly; the Delta statistics are
 * right; dictionary encoding is on for a repeating column and off for unique ones; and a file rolls
 * at the target size.
 */
class DeltaParquetFileWriterTest {
  private static final ObjectMapper JSON = new ObjectMapper();
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
          .column("flag", ColumnType.BOOLEAN)
          .column("score", ColumnType.DOUBLE)
          .column("qty", ColumnType.INT)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  @TempDir Path dir;

  private static Object[] row(long i) {
    boolean nulls = i % 11 == 5;
    long sign = i % 2 == 0 ? 1 : -1;
    return new Object[] {
      i,
      nulls ? null : i % 4 == 3 ? "c3-\u00e9\u65e5\u672c\ud83d\ude00" : "c" + (i % 4),
      nulls ? null : BigDecimal.valueOf(sign * i * 7, 2),
      nulls ? null : BigDecimal.valueOf(sign * i * 1_000_003L, 3),
      nulls ? null : new BigDecimal(sign * i + "123456789012345.6789"),
      nulls ? null : T0.plusSeconds(i),
      nulls ? null : LocalDate.ofEpochDay(20_000 + i),
      nulls ? null : i % 3 == 0,
      nulls ? null : i * 0.25,
      nulls ? null : (int) i,
      "r" + (i % 2)
    };
  }

  private List<DeltaWrittenFile> writeRows(DeltaTable table, int rows) throws Exception {
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    writer.open();
    for (long i = 0; i < rows; i++) {
      writer.append(row(i));
    }
    List<DeltaWrittenFile> files = writer.flush();
    new DeltaAppendCommit(table, SCHEMA, "writer-test").commit(0, files);
    return files;
  }

  @Test
  void everyTypeReadsBackExactlyWithStatisticsAndPerColumnDictionaries() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    List<DeltaWrittenFile> files = writeRows(table, 5_000);

    List<Object[]> read = new ArrayList<>(new DeltaTableReader(table).readLatest());
    read.sort(Comparator.comparingLong(r -> (Long) r[0]));
    assertThat(read).hasSize(5_000);
    for (int i = 0; i < 5_000; i++) {
      assertThat(read.get(i)).as("row %d", i).containsExactly(row(i));
    }

    assertThat(files).hasSize(2); // one per region
    for (DeltaWrittenFile file : files) {
      long parity = file.partitionValues().get("region").equals("r0") ? 0 : 1;
      JsonNode stats = JSON.readTree(file.statsJson());
      assertThat(stats.get("numRecords").asLong()).isEqualTo(2_500);
      assertThat(stats.at("/minValues/id").asLong()).isEqualTo(parity);
      assertThat(stats.at("/maxValues/id").asLong()).isEqualTo(4_998 + parity);
      assertThat(stats.at("/minValues/category").asText()).isEqualTo("c" + parity);
      assertThat(stats.at("/maxValues/category").asText())
          .isEqualTo(parity == 0 ? "c2" : "c3-\u00e9\u65e5\u672c\ud83d\ude00");
      assertThat(stats.at("/nullCount/large").asLong()).isEqualTo(nullRows(parity));
      assertThat(stats.has("region") || stats.at("/minValues").has("region")).isFalse();

      try (ParquetFileReader footer =
          ParquetFileReader.open(
              HadoopInputFile.fromPath(
                  new org.apache.hadoop.fs.Path(file.path()), new Configuration()))) {
        Map<String, ColumnChunkMetaData> chunks = new java.util.HashMap<>();
        for (ColumnChunkMetaData chunk : footer.getFooter().getBlocks().get(0).getColumns()) {
          chunks.put(chunk.getPath().toDotString(), chunk);
        }
        assertThat(chunks).doesNotContainKey("region");
        assertThat(dictionary(chunks.get("category"))).isTrue();
        assertThat(dictionary(chunks.get("id"))).isFalse();
        assertThat(dictionary(chunks.get("ts"))).isFalse();
        assertThat(dictionary(chunks.get("large"))).isFalse();
      }
    }
  }

  private static long nullRows(long parity) {
    long count = 0;
    for (long i = parity; i < 5_000; i += 2) {
      if (i % 11 == 5) {
        count++;
      }
    }
    return count;
  }

  private static boolean dictionary(ColumnChunkMetaData chunk) {
    return chunk.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
        || chunk.getEncodings().contains(Encoding.RLE_DICTIONARY);
  }

  @Test
  void aFileRollsAtTheTargetSize() throws Exception {
    DeltaTable table =
        DeltaTable.forPath(
            dir.resolve("small-files").toString(),
            Map.of("delta.kernel.default.parquet.writer.targetMaxFileSize", "65536"));
    List<DeltaWrittenFile> files = writeRows(table, 20_000);
    assertThat(files.size()).isGreaterThan(4);
    assertThat(files.stream().mapToLong(DeltaWrittenFile::numRecords).sum()).isEqualTo(20_000);
    assertThat(new DeltaTableReader(table).count()).isEqualTo(20_000);
  }

  @Test
  void decimalBytesMatchTheParquetSpecification() {
    assertThat(DeltaParquetFileWriter.decimalBytes(19)).isEqualTo(9);
    assertThat(DeltaParquetFileWriter.decimalBytes(25)).isEqualTo(11);
    assertThat(DeltaParquetFileWriter.decimalBytes(38)).isEqualTo(16);
  }
}
