package io.lakestream.connectors.delta.filter;

import static io.lakestream.connectors.delta.filter.DeltaFilter.and;
import static io.lakestream.connectors.delta.filter.DeltaFilter.between;
import static io.lakestream.connectors.delta.filter.DeltaFilter.equalTo;
import static io.lakestream.connectors.delta.filter.DeltaFilter.greaterThan;
import static io.lakestream.connectors.delta.filter.DeltaFilter.greaterThanOrEqual;
import static io.lakestream.connectors.delta.filter.DeltaFilter.in;
import static io.lakestream.connectors.delta.filter.DeltaFilter.isNotNull;
import static io.lakestream.connectors.delta.filter.DeltaFilter.isNull;
import static io.lakestream.connectors.delta.filter.DeltaFilter.lessThan;
import static io.lakestream.connectors.delta.filter.DeltaFilter.lessThanOrEqual;
import static io.lakestream.connectors.delta.filter.DeltaFilter.notEqualTo;
import static io.lakestream.connectors.delta.filter.DeltaFilter.or;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.lakestream.api.error.LakestreamException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-file decisions of data skipping (statistics) and partition pruning (partition values). */
class DeltaFileSkippingTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("id", LongType.LONG)
          .add("name", StringType.STRING)
          .add("amount", new DecimalType(12, 2))
          .add("day", DateType.DATE)
          .add("ts", TimestampType.TIMESTAMP)
          .add("local", TimestampNTZType.TIMESTAMP_NTZ)
          .add("score", DoubleType.DOUBLE)
          .add("raw", BinaryType.BINARY)
          .add("part", StringType.STRING)
          .add("bucket", IntegerType.INTEGER);

  private static final List<String> PARTITIONS = List.of("part", "bucket");

  /** Ids 10..20 in 100 rows, 5 of them null; names 'b'..'m'; amounts 12.50..99.99. */
  private static final String STATS =
      """
      {"numRecords":100,
       "minValues":{"id":10,"name":"b","amount":12.50,"day":"2024-05-01",
                    "ts":"2024-05-01T10:00:00.456Z","local":"2024-05-01T10:00:00.456",
                    "score":1.5},
       "maxValues":{"id":20,"name":"m","amount":99.99,"day":"2024-05-31",
                    "ts":"2024-05-01T11:00:00.456+01:00","local":"2024-05-01T10:00:00.456",
                    "score":2.5},
       "nullCount":{"id":5,"name":0,"amount":100,"day":0,"ts":0,"local":0,"score":0,"raw":0}}
      """;

  private static boolean keeps(DeltaFilter filter, String stats) {
    return keeps(filter, Map.of(), stats);
  }

  private static boolean keeps(DeltaFilter filter, Map<String, String> partition, String stats) {
    return DeltaFileSkipping.of(filter, SCHEMA, PARTITIONS, "t").mayMatch(partition, stats);
  }

  @Test
  void eachComparisonSkipsAFileWhoseValueRangeCannotSatisfyIt() {
    assertThat(keeps(equalTo("id", 9L), STATS)).isFalse();
    assertThat(keeps(equalTo("id", 10L), STATS)).isTrue();
    assertThat(keeps(equalTo("id", 21L), STATS)).isFalse();
    assertThat(keeps(lessThan("id", 10L), STATS)).isFalse();
    assertThat(keeps(lessThan("id", 11L), STATS)).isTrue();
    assertThat(keeps(lessThanOrEqual("id", 9L), STATS)).isFalse();
    assertThat(keeps(lessThanOrEqual("id", 10L), STATS)).isTrue();
    assertThat(keeps(greaterThan("id", 20L), STATS)).isFalse();
    assertThat(keeps(greaterThan("id", 19L), STATS)).isTrue();
    assertThat(keeps(greaterThanOrEqual("id", 21L), STATS)).isFalse();
    assertThat(keeps(greaterThanOrEqual("id", 20L), STATS)).isTrue();
    assertThat(keeps(in("id", 1L, 2L, 30L), STATS)).isFalse();
    assertThat(keeps(in("id", 1L, 15L), STATS)).isTrue();
    assertThat(keeps(notEqualTo("id", 15L), STATS)).isTrue();
    String single = "{\"numRecords\":3,\"minValues\":{\"id\":7},\"maxValues\":{\"id\":7}}";
    assertThat(keeps(notEqualTo("id", 7L), single)).isFalse();
    assertThat(keeps(notEqualTo("id", 8L), single)).isTrue();
  }

  @Test
  void andNeedsEveryLegAndOrAnyLeg() {
    assertThat(keeps(between("id", 21L, 30L), STATS)).isFalse();
    assertThat(keeps(between("id", 15L, 30L), STATS)).isTrue();
    assertThat(keeps(and(equalTo("id", 15L), equalTo("name", "z")), STATS)).isFalse();
    assertThat(keeps(or(equalTo("id", 1L), equalTo("name", "z")), STATS)).isFalse();
    assertThat(keeps(or(equalTo("id", 1L), equalTo("name", "c")), STATS)).isTrue();
  }

  @Test
  void nullTestsUseTheNullCountAndComparisonsSkipAColumnOfOnlyNulls() {
    assertThat(keeps(isNull("id"), STATS)).isTrue();
    assertThat(keeps(isNull("name"), STATS)).isFalse();
    assertThat(keeps(isNotNull("name"), STATS)).isTrue();
    assertThat(keeps(isNotNull("amount"), STATS)).isFalse(); // 100 nulls in 100 rows
    assertThat(keeps(equalTo("amount", new BigDecimal("50.00")), STATS)).isFalse();
    assertThat(keeps(isNull("raw"), STATS)).isFalse();
  }

  @Test
  void missingOrUnreadableStatisticsKeepTheFileAndAnEmptyFileIsSkipped() {
    DeltaFilter filter = equalTo("id", 1_000L);
    assertThat(keeps(filter, null)).isTrue();
    assertThat(keeps(filter, "")).isTrue();
    assertThat(keeps(filter, "not json")).isTrue();
    assertThat(keeps(filter, "{\"numRecords\":5}")).isTrue();
    assertThat(keeps(filter, "{\"numRecords\":5,\"minValues\":{\"id\":\"x\"},\"maxValues\":{}}"))
        .isTrue();
    assertThat(keeps(isNull("id"), "{\"numRecords\":5}")).isTrue();
    assertThat(keeps(isNotNull("id"), "{\"nullCount\":{\"id\":5}}")).isTrue();
    assertThat(keeps(filter, "{\"numRecords\":0}")).isFalse();
    assertThat(keeps(isNull("id"), "{\"numRecords\":0}")).isFalse();
  }

  @Test
  void decimalsCompareByValueWhateverTheirScale() {
    String stats =
        "{\"numRecords\":4,\"minValues\":{\"amount\":12.50},\"maxValues\":{\"amount\":99.99},"
            + "\"nullCount\":{\"amount\":1}}";
    assertThat(keeps(equalTo("amount", new BigDecimal("12.5")), stats)).isTrue();
    assertThat(keeps(equalTo("amount", new BigDecimal("12.49")), stats)).isFalse();
    assertThat(keeps(greaterThan("amount", new BigDecimal("99.990")), stats)).isFalse();
    assertThat(keeps(lessThan("amount", new BigDecimal("12.5")), stats)).isFalse();
    assertThat(keeps(lessThanOrEqual("amount", new BigDecimal("12.5000")), stats)).isTrue();
  }

  @Test
  void datesAndTimestampsCompareAsTimesAndMillisecondStatisticsCoverTheirMicroseconds() {
    assertThat(keeps(lessThan("day", LocalDate.of(2024, 5, 1)), STATS)).isFalse();
    assertThat(keeps(equalTo("day", LocalDate.of(2024, 5, 31)), STATS)).isTrue();
    assertThat(keeps(greaterThan("day", LocalDate.of(2024, 5, 31)), STATS)).isFalse();
    // max 11:00:00.456+01:00 is 10:00:00.456Z, stored from up to 10:00:00.456999
    Instant stored = Instant.parse("2024-05-01T10:00:00.456789Z");
    assertThat(keeps(equalTo("ts", stored), STATS)).isTrue();
    assertThat(keeps(greaterThanOrEqual("ts", stored), STATS)).isTrue();
    assertThat(keeps(greaterThan("ts", Instant.parse("2024-05-01T10:00:00.457Z")), STATS))
        .isFalse();
    assertThat(keeps(lessThan("ts", Instant.parse("2024-05-01T10:00:00.455Z")), STATS)).isFalse();
    LocalDateTime local = LocalDateTime.parse("2024-05-01T10:00:00.456789");
    assertThat(keeps(equalTo("local", local), STATS)).isTrue();
    assertThat(keeps(notEqualTo("local", local), STATS)).isTrue();
    assertThat(keeps(greaterThan("local", local.plusSeconds(1)), STATS)).isFalse();
  }

  @Test
  void stringsCompareByCodePointAsDeltaOrdersUtf8Bytes() {
    assertThat(keeps(equalTo("name", "a"), STATS)).isFalse();
    assertThat(keeps(equalTo("name", "c"), STATS)).isTrue();
    assertThat(keeps(greaterThan("name", "m"), STATS)).isFalse();
    // U+E000 <= U+FFFD <= U+1F600 by code point, though the UTF-16 unit 0xD83D is below 0xFFFD
    String stats =
        "{\"numRecords\":2,\"minValues\":{\"name\":\"\uE000\"},"
            + "\"maxValues\":{\"name\":\"\uD83D\uDE00\"}}";
    assertThat(keeps(equalTo("name", "\uFFFD"), stats)).isTrue();
    assertThat(keeps(greaterThan("name", "\uD83D\uDE00"), stats)).isFalse();
  }

  @Test
  void notANumberIsNeverSkippedOn() {
    assertThat(keeps(equalTo("score", Double.NaN), STATS)).isTrue();
    assertThat(keeps(equalTo("score", 3.0), STATS)).isFalse();
    assertThat(keeps(notEqualTo("score", 1.5), STATS.replace("2.5", "1.5"))).isTrue();
  }

  @Test
  void partitionColumnsAreEvaluatedExactlyOnTheFilesPartitionValues() {
    Map<String, String> a = Map.of("part", "a", "bucket", "3");
    Map<String, String> nulls = new HashMap<>();
    nulls.put("part", null);
    nulls.put("bucket", "");
    assertThat(keeps(equalTo("part", "a"), a, null)).isTrue();
    assertThat(keeps(equalTo("part", "b"), a, null)).isFalse();
    assertThat(keeps(notEqualTo("part", "b"), a, null)).isTrue();
    assertThat(keeps(equalTo("part", "a"), nulls, null)).isFalse();
    assertThat(keeps(notEqualTo("part", "a"), nulls, null)).isFalse();
    assertThat(keeps(isNull("part"), nulls, null)).isTrue();
    assertThat(keeps(isNull("bucket"), nulls, null)).isTrue();
    assertThat(keeps(isNull("part"), a, null)).isFalse();
    assertThat(keeps(in("bucket", 1, 2), a, null)).isFalse();
    assertThat(keeps(in("bucket", 1, 3), a, null)).isTrue();
    assertThat(keeps(greaterThan("bucket", 2), a, null)).isTrue();
    assertThat(keeps(and(equalTo("part", "a"), equalTo("id", 99L)), a, STATS)).isFalse();
    assertThat(keeps(or(equalTo("part", "a"), equalTo("id", 99L)), a, STATS)).isTrue();
    assertThat(keeps(equalTo("bucket", 3), Map.of("bucket", "three"), null))
        .as("an unreadable partition value keeps the file (reading it names the value)")
        .isTrue();
  }

  @Test
  void columnsMatchIgnoringCaseAndNoFilterKeepsEveryFile() {
    assertThat(keeps(equalTo("ID", 9L), STATS)).isFalse();
    assertThat(keeps(equalTo("Part", "b"), Map.of("part", "a"), null)).isFalse();
    assertThat(DeltaFileSkipping.none().mayMatch(Map.of(), "{\"numRecords\":0}")).isTrue();
    assertThat(DeltaFileSkipping.of(null, SCHEMA, PARTITIONS, "t").keepsAll()).isTrue();
  }

  @Test
  void aFilterThatDoesNotFitTheTableNamesTheColumn() {
    assertInvalid(equalTo("nope", 1L), "column 'nope'", "does not have", "[id, name");
    assertInvalid(equalTo("id", 1), "column 'id' (long)", "java.lang.Integer", "java.lang.Long");
    assertInvalid(equalTo("day", "2024-05-01"), "column 'day'", "java.time.LocalDate");
    assertInvalid(in("raw", "x"), "column 'raw'", "binary");
    assertThatThrownBy(() -> equalTo("id", null))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContainingAll("column 'id'", "isNull");
    assertThatThrownBy(() -> equalTo("id", new java.util.Date()))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContainingAll("column 'id'", "java.util.Date");
    keeps(isNull("raw"), STATS); // null tests take any column
  }

  private static void assertInvalid(DeltaFilter filter, String... texts) {
    assertThatThrownBy(() -> DeltaFileSkipping.of(filter, SCHEMA, PARTITIONS, "s3a://lake/t"))
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e -> assertThat(e.errorClass()).isEqualTo("DELTA_INVALID_SOURCE_SETTING"))
        .hasMessageContainingAll(texts);
  }

  @Test
  void theFilterReadsAsSql() {
    assertThat(
            and(
                    between("id", 1L, 5L),
                    or(equalTo("name", "o'k"), isNull("day")),
                    in("day", LocalDate.of(2024, 5, 1)))
                .toString())
        .isEqualTo(
            "(id >= 1 AND id <= 5) AND (name = 'o''k' OR day IS NULL)"
                + " AND day IN (DATE '2024-05-01')");
  }

  @Test
  void aFilterIsSerializableAsASourceFieldIs() throws Exception {
    DeltaFilter filter =
        and(
            between("id", 1L, 5L),
            or(in("day", LocalDate.of(2024, 5, 1)), isNull("name")),
            equalTo("ts", Instant.parse("2024-05-01T00:00:00Z")));
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(filter);
    }
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(filter);
    }
  }
}
