package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta writer beyond the core types: tinyint, smallint, float, timestamp without time zone and
 * binary through lakestream's own Parquet writer (statistics, Parquet logical types, partition
 * columns of the new types), and arrays, maps and structs, nested in each other and null at every
 * level, through Kernel's writer; a MERGE rewrites files with nested values without changing them.
 * Everything is read back through Kernel.
 */
class DeltaWriterTypesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final LocalDateTime T0 = LocalDateTime.parse("2026-03-01T08:30:00.123456");

  @TempDir Path dir;

  private static final DeltaTableSchema PRIMITIVES =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("tiny", ColumnType.BYTE)
          .column("small", ColumnType.SHORT)
          .column("ratio", ColumnType.FLOAT)
          .column("local", ColumnType.TIMESTAMP_NTZ)
          .column("payload", ColumnType.BINARY)
          .column("bucket", ColumnType.SHORT)
          .column("hour", ColumnType.TIMESTAMP_NTZ)
          .partitionedBy("bucket", "hour")
          .build();

  private static Object[] primitiveRow(int i) {
    boolean nulls = i % 9 == 4;
    return new Object[] {
      (long) i,
      nulls ? null : (byte) (i % 256 - 128),
      nulls ? null : (i % 2 == 0 ? (Object) (short) (i * 7 - 3000) : (Object) (byte) (i % 100)),
      nulls ? null : i * 0.25f - 10f,
      nulls ? null : T0.plusSeconds(i * 61L),
      nulls ? null : new byte[] {(byte) i, (byte) (i >> 8), 0, -1},
      (short) (i % 3),
      i % 5 == 0 ? null : T0.withMinute(0).withSecond(0).withNano(0).plusHours(i % 2)
    };
  }

  /** The row as read back: a Byte into SMALLINT comes back a Short. */
  private static Object[] primitiveExpected(int i) {
    Object[] row = primitiveRow(i);
    if (row[2] instanceof Byte b) {
      row[2] = (short) b;
    }
    return row;
  }

  @Test
  void newPrimitiveTypesReadBackExactlyWithStatisticsAndSparksParquetTypes() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("primitives").toString());
    List<DeltaWrittenFile> files = appendAndCommit(table, PRIMITIVES, 3_000, this::primitiveOf);

    assertThat(canonicalRows(table))
        .containsExactlyElementsOf(canonical(3_000, i -> primitiveExpected(i)));
    assertThat(files).hasSize(9); // 3 buckets x 3 hours (one of them null)
    long payloadNulls = 0;
    List<String> localMins = new ArrayList<>();
    for (DeltaWrittenFile file : files) {
      JsonNode stats = JSON.readTree(file.statsJson());
      payloadNulls += stats.at("/nullCount/payload").asLong();
      assertThat(stats.at("/minValues/tiny").asInt()).isGreaterThanOrEqualTo(-128);
      assertThat(stats.at("/maxValues/tiny").asInt()).isLessThanOrEqualTo(127);
      assertThat(stats.at("/minValues/ratio").isNumber()).isTrue();
      localMins.add(stats.at("/minValues/local").asText());
      assertThat(file.partitionValues()).containsKeys("bucket", "hour");
    }
    assertThat(payloadNulls).isEqualTo(3_000 / 9); // rows 4, 13, 22, ...
    assertThat(localMins).contains("2026-03-01T08:30:00.123"); // row 0's, to the millisecond
    String protocol =
        java.nio.file.Files.readAllLines(
                dir.resolve("primitives/_delta_log/00000000000000000000.json"))
            .stream()
            .filter(line -> line.contains("\"protocol\""))
            .findFirst()
            .orElseThrow();
    assertThat(JSON.readTree(protocol).at("/protocol/readerFeatures").toString())
        .as("Spark reads timestamp_ntz columns only of tables with the feature")
        .contains("timestampNtz");
    MessageType parquet = parquetSchema(files.get(0).path());
    assertThat(parquet.getType("local").getLogicalTypeAnnotation())
        .isEqualTo(
            LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS));
    assertThat(parquet.getType("ratio").asPrimitiveType().getPrimitiveTypeName().name())
        .isEqualTo("FLOAT");
  }

  private Object[] primitiveOf(int i) {
    return primitiveRow(i);
  }

  private static final ColumnType LINE =
      ColumnType.struct(
          RowSchema.builder()
              .column("sku", ColumnType.STRING, false)
              .column("qty", ColumnType.INT)
              .column("prices", ColumnType.array(ColumnType.decimal(7, 2)))
              .build());

  private static final DeltaTableSchema NESTED =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("tags", ColumnType.array(ColumnType.STRING))
          .column("counts", ColumnType.map(ColumnType.STRING, ColumnType.LONG))
          .column("lines", ColumnType.array(LINE))
          .column(
              "address",
              ColumnType.struct(
                  RowSchema.builder()
                      .column("city", ColumnType.STRING)
                      .column(
                          "geo",
                          ColumnType.map(ColumnType.INT, ColumnType.array(ColumnType.DOUBLE)))
                      .build()))
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  private static Object[] nestedRow(int i) {
    boolean nulls = i % 7 == 3;
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("a" + i, (long) i);
    counts.put("b", i % 4 == 0 ? null : -1L);
    Map<Integer, List<Double>> geo = new LinkedHashMap<>();
    geo.put(i, Arrays.asList(i * 0.5, null, -i * 1.5));
    return new Object[] {
      (long) i,
      nulls ? null : Arrays.asList("t" + i, null, ""),
      nulls ? null : counts,
      nulls
          ? null
          : List.of(
              new Object[] {"s" + i, i, Arrays.asList(new BigDecimal("1.25"), null)},
              new Object[] {"s" + (i + 1), null, List.of()}),
      nulls ? null : new Object[] {i % 3 == 0 ? null : "city" + i, i % 2 == 0 ? geo : null},
      "r" + (i % 2)
    };
  }

  @Test
  void arraysMapsAndStructsNestedInEachOtherReadBackExactly() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("nested").toString());
    List<DeltaWrittenFile> files =
        appendAndCommit(table, NESTED, 2_500, DeltaWriterTypesTest::nestedRow);

    assertThat(files).hasSize(2);
    assertThat(canonicalRows(table))
        .containsExactlyElementsOf(canonical(2_500, DeltaWriterTypesTest::nestedRow));
    JsonNode stats = JSON.readTree(files.get(0).statsJson());
    assertThat(stats.get("numRecords").asLong()).isEqualTo(1_250);
    assertThat(stats.at("/minValues/address/city").isTextual()).isTrue();
  }

  @Test
  void aMergeRewritesFilesWithNestedValuesKeepingTheRowsItDoesNotChange() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("merge").toString());
    appendAndCommit(table, NESTED, 200, DeltaWriterTypesTest::nestedRow);
    Object[] changed = nestedRow(10);
    changed[1] = List.of("changed");
    DeltaMerge merge =
        DeltaMerge.into(table, NESTED, "id")
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll()
            .build();
    new DeltaMergeCommit(merge, "nested-merge").commit(0, List.of(changed, nestedRow(500)));

    List<Object[]> expected = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      expected.add(i == 10 ? changed : nestedRow(i));
    }
    expected.add(nestedRow(500));
    assertThat(canonicalRows(table))
        .containsExactlyElementsOf(
            expected.stream().map(DeltaWriterTypesTest::canonicalRow).toList());
  }

  @Test
  void binaryAndNestedColumnsCannotPartitionOrKeyAMerge() {
    for (ColumnType type : List.of(ColumnType.BINARY, ColumnType.array(ColumnType.INT), LINE)) {
      assertThatThrownBy(
              () ->
                  DeltaTableSchema.builder()
                      .column("id", ColumnType.LONG)
                      .column("p", type)
                      .partitionedBy("p")
                      .build())
          .isInstanceOf(LakestreamException.class)
          .hasMessageStartingWith("[DELTA_INVALID_SCHEMA] Partition column 'p' is " + type)
          .hasMessageContaining("partition by a column of type");
    }
    DeltaTable table = DeltaTable.forPath(dir.resolve("keys").toString());
    assertThatThrownBy(() -> DeltaMerge.into(table, NESTED, "tags").whenMatchedUpdateAll().build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageStartingWith("[DELTA_INVALID_MERGE] Key column 'tags' is array<string>")
        .hasMessageContaining("use a column of a primitive type");
  }

  @Test
  void aNestedValueThatDoesNotFitNamesItsPath() {
    DeltaTableWriter writer =
        new DeltaTableWriter(DeltaTable.forPath(dir.resolve("bad").toString()), NESTED);
    Object[] row = nestedRow(1);
    row[3] = List.of((Object) new Object[] {null, 1, List.of()}); // sku is NOT NULL
    assertThatThrownBy(() -> writer.append(row))
        .hasMessage(
            "[DELTA_INVALID_ROW] Column 'lines.element.sku' is NOT NULL but the row holds null");
    row[3] = null;
    row[2] = Map.of("k", "not a long");
    assertThatThrownBy(() -> writer.append(row))
        .hasMessageStartingWith(
            "[DELTA_INVALID_ROW] Column 'counts.value' is long but the row holds a java.lang.String");
  }

  // ---------------------------------------------------------------- helpers

  interface RowOf {
    Object[] row(int i);
  }

  private static List<DeltaWrittenFile> appendAndCommit(
      DeltaTable table, DeltaTableSchema schema, int rows, RowOf rowOf) throws Exception {
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    writer.open();
    for (int i = 0; i < rows; i++) {
      writer.append(rowOf.row(i));
    }
    List<DeltaWrittenFile> files = writer.flush();
    new DeltaAppendCommit(table, schema, "types-test").commit(0, files);
    return files;
  }

  private static MessageType parquetSchema(String path) throws Exception {
    try (ParquetFileReader footer =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(path), new Configuration()))) {
      return footer.getFooter().getFileMetaData().getSchema();
    }
  }

  /** The table's rows in id order, each as {@link #canonicalRow}. */
  private static List<List<Object>> canonicalRows(DeltaTable table) {
    List<Object[]> rows = new ArrayList<>(new DeltaTableReader(table).readLatest());
    rows.sort(Comparator.comparingLong(r -> (Long) r[0]));
    return rows.stream().map(DeltaWriterTypesTest::canonicalRow).toList();
  }

  private static List<List<Object>> canonical(int rows, RowOf rowOf) {
    List<List<Object>> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      out.add(canonicalRow(rowOf.row(i)));
    }
    return out;
  }

  /** A row whose arrays compare by content: structs as lists, binaries as hex. */
  private static List<Object> canonicalRow(Object[] row) {
    return Arrays.stream(row).map(DeltaWriterTypesTest::canonicalValue).toList();
  }

  private static Object canonicalValue(Object value) {
    if (value instanceof Object[] struct) {
      return canonicalRow(struct);
    } else if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    } else if (value instanceof List<?> list) {
      return list.stream().map(DeltaWriterTypesTest::canonicalValue).toList();
    } else if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(canonicalValue(k), canonicalValue(v)));
      return out;
    }
    return value;
  }
}
