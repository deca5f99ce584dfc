package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row-at-a-time path of {@link DeltaTableWriter} ({@code append} / {@code flush}, column
 * buffers): every type and its accepted Java values, nulls, partitions interleaved, buffers grown
 * past their first capacity and reused after a flush, and bad rows refused without harming the rows
 * already buffered. Files are committed and read back through Kernel.
 */
class DeltaTableWriterTest {
  @TempDir Path dir;

  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("qty", ColumnType.INT)
          .column("price", ColumnType.DOUBLE)
          .column("paid", ColumnType.BOOLEAN)
          .column("amount", ColumnType.decimal(10, 2))
          .column("ts", ColumnType.TIMESTAMP)
          .column("day", ColumnType.DATE)
          .column("region", ColumnType.STRING)
          .partitionedBy("region")
          .build();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** Row {@code i}, its Java values varied over the accepted types; every 7th has nulls. */
  private static Object[] row(int i) {
    boolean nulls = i % 7 == 0;
    return new Object[] {
      i % 2 == 0 ? (Object) (long) i : (Object) i, // Long or Integer into LONG
      nulls ? null : "n" + i,
      nulls ? null : (i % 3 == 0 ? (Object) (short) (i % 100) : (Object) i),
      nulls ? null : (i % 2 == 0 ? (Object) (i * 0.5) : (Object) (float) (i * 0.5)),
      nulls ? null : i % 2 == 0,
      nulls ? null : new BigDecimal(i + ".5"),
      nulls ? null : (i % 2 == 0 ? (Object) T0.plusSeconds(i) : (Object) micros(T0.plusSeconds(i))),
      nulls ? null : (i % 2 == 0 ? (Object) LocalDate.ofEpochDay(i) : (Object) i),
      i % 3 == 0 ? null : "r" + (i % 3) // null partition value too
    };
  }

  private static long micros(Instant t) {
    return t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
  }

  /** Row {@code i} as the reader returns it. */
  private static Object[] expected(int i) {
    boolean nulls = i % 7 == 0;
    return new Object[] {
      (long) i,
      nulls ? null : "n" + i,
      nulls ? null : (i % 3 == 0 ? i % 100 : i),
      nulls ? null : (i % 2 == 0 ? i * 0.5 : (double) (float) (i * 0.5)),
      nulls ? null : i % 2 == 0,
      nulls ? null : new BigDecimal(i + ".50"),
      nulls ? null : T0.plusSeconds(i),
      nulls ? null : LocalDate.ofEpochDay(i),
      i % 3 == 0 ? null : "r" + (i % 3)
    };
  }

  @Test
  void appendedRowsOfInterleavedPartitionsReadBackExactlyAcrossTwoFlushes() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();

    int firstBatch = 2_500; // beyond the buffers' first capacity
    for (int i = 0; i < firstBatch; i++) {
      writer.append(row(i));
    }
    assertThat(writer.bufferedRows()).isEqualTo(firstBatch);
    assertThat(writer.bufferedBytes()).isPositive();
    List<DeltaWrittenFile> files = writer.flush();
    assertThat(files).hasSize(3); // r1, r2 and the null partition
    assertThat(files.stream().mapToLong(DeltaWrittenFile::numRecords).sum()).isEqualTo(firstBatch);
    assertThat(writer.bufferedRows()).isZero();
    assertThat(writer.flush()).isEmpty();
    commit.commit(1, files);

    for (int i = firstBatch; i < 4_000; i++) { // buffers reused after the flush
      writer.append(row(i));
    }
    commit.commit(2, writer.flush());

    List<Object[]> read = new ArrayList<>(new DeltaTableReader(table).readLatest());
    read.sort(Comparator.comparingLong(r -> (Long) r[0]));
    assertThat(read).hasSize(4_000);
    for (int i = 0; i < 4_000; i++) {
      assertThat(read.get(i)).as("row %d", i).containsExactly(expected(i));
    }
  }

  @Test
  void timestampsAndDatesOfYears1To9999ReadBackExactly() throws Exception {
    // ChronoUnit.MICROS.between overflowed outside 1677-2262 (it goes through nanoseconds).
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    Instant[] times = {
      Instant.parse("0001-01-01T00:00:00Z"),
      Instant.parse("1500-06-30T12:00:00.000001Z"),
      Instant.parse("9999-12-31T23:59:59.999999Z")
    };
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      Object[] row = row(i + 1);
      row[6] = times[i];
      row[7] = LocalDate.ofInstant(times[i], java.time.ZoneOffset.UTC);
      rows.add(row);
    }
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    commit.commit(1, new DeltaTableWriter(table, SCHEMA).write(rows));
    List<Object[]> read = new ArrayList<>(new DeltaTableReader(table).readLatest());
    read.sort(Comparator.comparingLong(r -> (Long) r[0]));
    for (int i = 0; i < times.length; i++) {
      assertThat(read.get(i)[6]).isEqualTo(times[i]);
      assertThat(read.get(i)[7]).isEqualTo(rows.get(i)[7]);
    }
  }

  @Test
  void aPartitionValueTooLongForADirectoryNameIsARowErrorNotAFileSystemFailure() {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    Object[] fits = row(1);
    fits[8] = "r".repeat(240); // region=rrr...: 247 bytes
    writer.append(fits);
    Object[] tooLong = row(2);
    tooLong[8] = "/".repeat(90); // escaped to %2F: 277 bytes
    assertThatThrownBy(() -> writer.append(tooLong))
        .hasMessageContaining("Partition column 'region' holds a value of 90 characters")
        .hasMessageContaining("at most 255 bytes once escaped")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
    assertThat(writer.bufferedRows()).isEqualTo(1);
  }

  @Test
  void aBadRowIsRefusedNamingTheColumnAndTheRowsBufferedBeforeStay() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    writer.append(row(1));

    Object[] wrongType = row(2);
    wrongType[2] = "three";
    assertThatThrownBy(() -> writer.append(wrongType))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("'qty' is int but the row holds a java.lang.String")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
    Object[] nullId = row(4);
    nullId[0] = null;
    assertThatThrownBy(() -> writer.append(nullId))
        .hasMessageContaining("'id' is NOT NULL")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
    assertThatThrownBy(() -> writer.append(new Object[] {1L}))
        .hasMessageContaining("has 1 values, the table has 9 columns")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");
    Object[] badPartition = row(5);
    badPartition[8] = 5;
    assertThatThrownBy(() -> writer.append(badPartition))
        .hasMessageContaining("'region'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("DELTA_INVALID_ROW");

    assertThat(writer.bufferedRows()).isEqualTo(1);
    new DeltaAppendCommit(table, SCHEMA, "app").commit(1, writer.flush());
    assertThat(new DeltaTableReader(table).readLatest())
        .singleElement()
        .satisfies(r -> assertThat(r).containsExactly(expected(1)));
  }

  @Test
  void discardedRowsAreNeverWritten() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toString());
    DeltaTableWriter writer = new DeltaTableWriter(table, SCHEMA);
    writer.append(row(1));
    writer.discardBuffered();
    assertThat(writer.bufferedRows()).isZero();
    assertThat(writer.flush()).isEmpty();
  }
}
