package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.input.HostileJson;
import io.lakestream.testkit.input.HostileJson.Kind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated hostile files through Auto Loader's text formats in rescue mode: thousands of JSON
 * lines ({@link HostileJson}) and CSV rows (ragged, unclosed quotes, invalid UTF-8, NUL, huge
 * fields, numbers out of range). Every non-blank line must become exactly one row, clean or with
 * {@code _rescued_data}; valid records keep their exact values; records that are never valid are a
 * {@code _corrupt_record} holding the line; every typed value is in its type's range; and all rows
 * land in a real Delta table and read back row for row. The seed is printed, and set with {@code
 * -Dlakestream.hostile.seed=N} to replay a failure.
 */
class HostileInputPropertyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CASES = 4_000;
  private static final String FILE = "s3a://in/day=2026-12-03/f";

  private static final List<Column> COLUMNS =
      List.of(
          new Column("id", ColumnType.LONG),
          new Column("name", ColumnType.STRING),
          new Column("amount", ColumnType.decimal(12, 2)),
          new Column("score", ColumnType.DOUBLE),
          new Column("day", ColumnType.DATE),
          new Column("ts", ColumnType.TIMESTAMP),
          new Column("flag", ColumnType.BOOLEAN),
          new Column("qty", ColumnType.INT));
  private static final RecordConverter CONVERTER =
      new RecordConverter(new AutoLoaderSchema(COLUMNS, List.of(), true));
  private static final int RESCUED = COLUMNS.size();

  @TempDir Path dir;

  private static long seed() {
    long seed = Long.getLong("lakestream.hostile.seed", System.nanoTime());
    System.out.println("HostileInputPropertyTest seed " + seed);
    return seed;
  }

  /** One valid record's values, as the row must hold them. */
  private record Values(Object[] row, Map<String, String> json, List<String> csv) {}

  private static Values values(Random random) {
    long id = random.nextLong();
    String name = name(random);
    int scale = random.nextInt(3); // decimal(12,2): up to 10 digits before the point
    BigDecimal amount =
        BigDecimal.valueOf(
            random.nextLong() % (10_000_000_000L * (long) Math.pow(10, scale)), scale);
    double score = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
    LocalDate day = LocalDate.of(1 + random.nextInt(9999), 1 + random.nextInt(12), 1);
    Instant ts =
        Instant.parse("0001-01-01T00:00:00Z")
            .plusSeconds(Math.floorMod(random.nextLong(), 315_537_897_599L))
            .plusNanos(random.nextInt(1_000_000) * 1000L);
    boolean flag = random.nextBoolean();
    int qty = random.nextInt();
    Object[] row = {
      id, name, amount.setScale(2, RoundingMode.UNNECESSARY), score, day, ts, flag, qty, null
    };
    Map<String, String> json = new LinkedHashMap<>();
    json.put("id", Long.toString(id));
    json.put("name", JSON.valueToTree(name).toString());
    json.put("amount", random.nextBoolean() ? amount.toPlainString() : "\"" + amount + "\"");
    json.put("score", Double.toString(score));
    json.put("day", "\"" + day + "\"");
    json.put("ts", "\"" + ts + "\"");
    json.put("flag", Boolean.toString(flag));
    json.put("qty", Integer.toString(qty));
    List<String> csv =
        List.of(
            Long.toString(id),
            csvQuoted(name),
            amount.toPlainString(),
            Double.toString(score),
            day.toString(),
            ts.toString(),
            Boolean.toString(flag),
            Integer.toString(qty));
    return new Values(row, json, csv);
  }

  /** Text with quotes, commas, backslashes, accents, CJK and an emoji; never empty or blank. */
  private static String name(Random random) {
    String[] parts = {"Ana", "é", "日本", "\uD83D\uDE00", "\"", ",", "\\", " ", "x", "\t", "{}"};
    StringBuilder name = new StringBuilder("n");
    for (int i = random.nextInt(6); i > 0; i--) {
      name.append(parts[random.nextInt(parts.length)]);
    }
    return name.toString();
  }

  private static String csvQuoted(String value) {
    return "\"" + value.replace("\"", "\"\"") + "\"";
  }

  @Test
  void everyJsonLineIsACleanRowOrRescuedAndAllLandInADeltaTable() throws Exception {
    long seed = seed();
    HostileJson hostile = new HostileJson(seed, values(new Random(seed)).json());
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    List<Kind> kinds = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    List<Object[]> expected = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      Values values = values(hostile.random());
      HostileJson.Case c = hostile.next(values.json());
      file.writeBytes(c.bytes());
      file.write('\n');
      kinds.add(c.kind());
      fields.add(c.field());
      expected.add(values.row());
    }
    List<Row> rows = read(FileFormat.JSON, file.toByteArray());

    assertThat(rows).as("one row per line (seed %d)", seed).hasSize(CASES);
    Map<Kind, int[]> tally = new EnumMap<>(Kind.class);
    for (int i = 0; i < CASES; i++) {
      Row row = rows.get(i);
      String rescued = (String) row.getField(RESCUED);
      String why = "seed " + seed + ", line " + (i + 1) + ", " + kinds.get(i);
      tally.computeIfAbsent(kinds.get(i), k -> new int[2])[rescued == null ? 0 : 1]++;
      assertTyped(row, why);
      if (kinds.get(i) == Kind.VALID) {
        assertThat(rescued).as(why).isNull();
        assertThat(values(row)).as(why).containsExactly(expected.get(i));
      } else if (kinds.get(i).neverValid()) {
        assertThat(rescued).as(why).isNotNull();
        assertThat(JSON.readTree(rescued).has("_corrupt_record")).as(why).isTrue();
      } else if (rescued != null) {
        JsonNode node = JSON.readTree(rescued);
        assertThat(node.has("_corrupt_record") || node.has(fields.get(i))).as(why).isTrue();
      }
    }
    System.out.println("JSON cases by kind [clean, rescued]: " + describe(tally));
    assertLandInDelta(rows);
  }

  @Test
  void everyCsvRowIsACleanRowOrRescuedAndAllLandInADeltaTable() throws Exception {
    long seed = seed();
    Random random = new Random(seed);
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.writeBytes(utf8("id,name,amount,score,day,ts,flag,qty\n"));
    List<String> kinds = new ArrayList<>();
    List<Object[]> expected = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      Values values = values(random);
      List<String> fields = new ArrayList<>(values.csv());
      String kind = csvMutation(random, fields);
      byte[] line = utf8(String.join(",", fields));
      if (kind.equals("invalid-utf8")) {
        byte[] withBad = Arrays.copyOf(line, line.length + 2);
        withBad[line.length] = (byte) 0xC3;
        withBad[line.length + 1] = (byte) 0x28;
        line = withBad;
      }
      file.writeBytes(line);
      file.write(random.nextBoolean() ? '\n' : '\r');
      if (random.nextInt(20) == 0) {
        file.writeBytes(utf8("   \r\n")); // a blank line: not a record
      }
      kinds.add(kind);
      expected.add(values.row());
    }
    List<Row> rows = read(FileFormat.CSV, file.toByteArray());

    assertThat(rows).as("one row per non-blank line (seed %d)", seed).hasSize(CASES);
    Map<String, int[]> tally = new LinkedHashMap<>();
    for (int i = 0; i < CASES; i++) {
      Row row = rows.get(i);
      String rescued = (String) row.getField(RESCUED);
      String kind = kinds.get(i);
      String why = "seed " + seed + ", row " + (i + 1) + ", " + kind;
      tally.computeIfAbsent(kind, k -> new int[2])[rescued == null ? 0 : 1]++;
      assertTyped(row, why);
      switch (kind) {
        case "valid" -> {
          assertThat(rescued).as(why).isNull();
          assertThat(values(row)).as(why).containsExactly(expected.get(i));
        }
        case "ragged", "unclosed-quote", "invalid-utf8" -> {
          assertThat(rescued).as(why).isNotNull();
          assertThat(JSON.readTree(rescued).has("_corrupt_record")).as(why).isTrue();
        }
        default -> {}
      }
    }
    System.out.println("CSV cases by kind [clean, rescued]: " + describe(tally));
    assertLandInDelta(rows);
  }

  /** Changes one field (or the row) of a valid CSV row; returns what was done. */
  private static String csvMutation(Random random, List<String> fields) {
    if (random.nextBoolean()) {
      return "valid";
    }
    int f = random.nextInt(fields.size());
    String[] hostileValues = {
      "1e999999999",
      "-1e-999999999",
      "99999999999999999999",
      "NaN",
      "Infinity",
      "+1000000000-01-01",
      "0000-01-01",
      "1" + "0".repeat(5000),
      "x".repeat(200_000),
      "a\0b",
      " 7 ",
      "TRUE",
      "0x1F",
      "2026-02-30",
      "9999-12-31T23:59:59.9999999999Z",
      "\"\"",
      ""
    };
    switch (random.nextInt(5)) {
      case 0 -> {
        if (random.nextBoolean()) {
          fields.remove(f);
        } else {
          fields.add(f, "extra");
        }
        return "ragged";
      }
      case 1 -> {
        fields.set(f, "\"unclosed" + fields.get(f));
        return "unclosed-quote";
      }
      case 2 -> {
        return "invalid-utf8";
      }
      default -> {
        fields.set(f, hostileValues[random.nextInt(hostileValues.length)]);
        return "hostile-value";
      }
    }
  }

  private static List<Row> read(FileFormat format, byte[] file) throws Exception {
    List<Row> rows = new ArrayList<>();
    format.read(
        new ByteArrayInputStream(file),
        (record, line, number) -> rows.add(CONVERTER.toRow(record, line, number, FILE, Map.of())));
    return rows;
  }

  private static Object[] values(Row row) {
    Object[] values = new Object[row.getArity()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.getField(i);
    }
    return values;
  }

  /** Each non-null value has its column's Java class and fits the type's range. */
  private static void assertTyped(Row row, String why) {
    assertThat(row.getArity()).as(why).isEqualTo(COLUMNS.size() + 1);
    for (int c = 0; c < COLUMNS.size(); c++) {
      Object value = row.getField(c);
      if (value == null) {
        continue;
      }
      String column = why + ", column " + COLUMNS.get(c).name();
      switch (COLUMNS.get(c).type().kind()) {
        case LONG -> assertThat(value).as(column).isInstanceOf(Long.class);
        case INT -> assertThat(value).as(column).isInstanceOf(Integer.class);
        case STRING -> assertThat(value).as(column).isInstanceOf(String.class);
        case DOUBLE -> assertThat(value).as(column).isInstanceOf(Double.class);
        case BOOLEAN -> assertThat(value).as(column).isInstanceOf(Boolean.class);
        case DECIMAL -> {
          BigDecimal decimal = (BigDecimal) value;
          assertThat(decimal.scale()).as(column).isEqualTo(2);
          assertThat(decimal.precision()).as(column).isLessThanOrEqualTo(12);
        }
        case DATE -> assertThat(((LocalDate) value).getYear()).as(column).isBetween(1, 9999);
        case TIMESTAMP ->
            assertThat(((Instant) value).atZone(java.time.ZoneOffset.UTC).getYear())
                .as(column)
                .isBetween(1, 9999);
        default -> throw new AssertionError("no check for " + COLUMNS.get(c).type());
      }
    }
  }

  /** Writes the rows (with their line number) to a Delta table and reads them back. */
  private void assertLandInDelta(List<Row> rows) throws Exception {
    DeltaTableSchema.Builder schema = DeltaTableSchema.builder().column("line", ColumnType.LONG);
    COLUMNS.forEach(c -> schema.column(c.name(), c.type()));
    DeltaTableSchema deltaSchema = schema.column("_rescued_data", ColumnType.STRING).build();
    DeltaTable table = DeltaTable.forPath(dir.resolve("t-" + System.nanoTime()).toString());
    List<Object[]> written = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Object[] values = values(rows.get(i));
      Object[] withLine = new Object[values.length + 1];
      withLine[0] = (long) i;
      System.arraycopy(values, 0, withLine, 1, values.length);
      written.add(withLine);
    }
    DeltaAppendCommit commit = new DeltaAppendCommit(table, deltaSchema, "hostile");
    commit.open();
    commit.commit(1, new DeltaTableWriter(table, deltaSchema).write(written));

    List<Object[]> read = new ArrayList<>(new DeltaTableReader(table).readLatest());
    read.sort(Comparator.comparingLong(r -> (Long) r[0]));
    assertThat(read).hasSize(rows.size());
    for (int i = 0; i < read.size(); i++) {
      Object[] want = written.get(i).clone();
      if (want[6] instanceof Instant t) {
        want[6] = t.minusNanos(t.getNano() % 1000); // Delta keeps microseconds
      }
      assertThat(read.get(i)).as("line %d in the Delta table", i + 1).containsExactly(want);
    }
  }

  private static String describe(Map<?, int[]> tally) {
    StringBuilder text = new StringBuilder();
    tally.forEach((k, v) -> text.append(k).append(Arrays.toString(v)).append(' '));
    return text.toString();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
