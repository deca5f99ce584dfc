package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpsertStatementTest {
  private static final PostgresTableName TABLE = new PostgresTableName("public", "order");
  private static final LakebaseSchema SCHEMA =
      LakebaseSchema.builder()
          .column("region", ColumnType.STRING)
          .column("Id", ColumnType.LONG)
          .column("select", ColumnType.STRING)
          .column("we\"ird", ColumnType.DOUBLE)
          .build();

  @Test
  void upsertQuotesEveryIdentifier() {
    assertThat(UpsertStatement.of(TABLE, SCHEMA, List.of("region", "Id")).sql())
        .isEqualTo(
            "INSERT INTO \"public\".\"order\" (\"region\", \"Id\", \"select\", \"we\"\"ird\")"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (\"region\", \"Id\") DO UPDATE SET"
                + " \"select\" = EXCLUDED.\"select\", \"we\"\"ird\" = EXCLUDED.\"we\"\"ird\"");
  }

  @Test
  void aVersionColumnGuardsTheUpdateOfBothStatements() {
    UpsertStatement guarded =
        UpsertStatement.of(TABLE, SCHEMA, List.of("Id")).withVersionColumn("we\"ird");
    String guard = " WHERE \"public\".\"order\".\"we\"\"ird\" < EXCLUDED.\"we\"\"ird\"";
    assertThat(guarded.sql()).endsWith("\"we\"\"ird\" = EXCLUDED.\"we\"\"ird\"" + guard);
    assertThat(guarded.unnestSql()).endsWith(guard);
    assertThat(guarded.conflictClause()).endsWith(guard);
    assertThat(UpsertStatement.of(TABLE, SCHEMA, List.of("Id")).sql()).doesNotContain("WHERE");
  }

  @Test
  void aVersionColumnNeedsAKeyAndAColumnOutsideIt() {
    assertThatThrownBy(() -> UpsertStatement.of(TABLE, SCHEMA, List.of()).withVersionColumn("Id"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a key");
    assertThatThrownBy(
            () -> UpsertStatement.of(TABLE, SCHEMA, List.of("Id")).withVersionColumn("Id"))
        .hasMessageContaining("outside the upsert key");
    assertThatThrownBy(
            () -> UpsertStatement.of(TABLE, SCHEMA, List.of("Id")).withVersionColumn("seq"))
        .hasMessageContaining("one of the stream's columns");
  }

  @Test
  void batchesBindOneArrayPerColumnWhenEveryTypeHasOne() {
    assertThat(UpsertStatement.of(TABLE, SCHEMA, List.of("Id")).unnestSql())
        .isEqualTo(
            "INSERT INTO \"public\".\"order\" (\"region\", \"Id\", \"select\", \"we\"\"ird\")"
                + " SELECT * FROM UNNEST(?::text[], ?::int8[], ?::text[], ?::float8[])"
                + " ON CONFLICT (\"Id\") DO UPDATE SET \"region\" = EXCLUDED.\"region\","
                + " \"select\" = EXCLUDED.\"select\", \"we\"\"ird\" = EXCLUDED.\"we\"\"ird\"");
    LakebaseSchema withTime =
        LakebaseSchema.builder()
            .column("id", ColumnType.LONG)
            .column("at", ColumnType.TIMESTAMP)
            .build();
    assertThat(UpsertStatement.of(TABLE, withTime, List.of("id")).unnestSql()).isNull();
  }

  @Test
  void withoutKeyPlainInsertAndAllKeyDoesNothing() {
    assertThat(UpsertStatement.of(TABLE, SCHEMA, List.of()).sql())
        .isEqualTo(
            "INSERT INTO \"public\".\"order\" (\"region\", \"Id\", \"select\", \"we\"\"ird\")"
                + " VALUES (?, ?, ?, ?)");
    LakebaseSchema keys = LakebaseSchema.builder().column("k", ColumnType.INT).build();
    assertThat(UpsertStatement.of(TABLE, keys, List.of("k")).sql())
        .endsWith("ON CONFLICT (\"k\") DO NOTHING");
  }

  @Test
  void shapeSortsByKeyAndKeepsTheLastRowOfEachKey() {
    UpsertStatement upsert = UpsertStatement.of(TABLE, SCHEMA, List.of("region", "Id"));
    Object[][] rows = {
      {"eu", 3L, "a", 1.0},
      {"us", 1L, "b", 2.0},
      {"eu", 3L, "c", 3.0},
      {"eu", 1, "d", 4.0}, // an Integer in a LONG column compares as a number
      {"eu", 3L, "e", 5.0},
      {"ap", 9L, "f", 6.0},
      null
    };
    int kept = upsert.shape(rows, 6);
    assertThat(kept).isEqualTo(4);
    assertThat(Arrays.asList(rows).subList(0, kept))
        .containsExactly(
            new Object[] {"ap", 9L, "f", 6.0},
            new Object[] {"eu", 1, "d", 4.0},
            new Object[] {"eu", 3L, "e", 5.0},
            new Object[] {"us", 1L, "b", 2.0});
    assertThat(rows[4]).isNull();
  }

  @Test
  void deletesByKeyBindOneArrayPerKeyColumnWhenEveryKeyTypeHasOne() {
    UpsertStatement upsert = UpsertStatement.of(TABLE, SCHEMA, List.of("region", "Id"));
    assertThat(upsert.deleteUnnestSql())
        .isEqualTo(
            "DELETE FROM \"public\".\"order\" WHERE (\"region\", \"Id\") IN"
                + " (SELECT * FROM UNNEST(?::text[], ?::int8[]))");
    assertThat(upsert.deleteSql())
        .isEqualTo("DELETE FROM \"public\".\"order\" WHERE \"region\" = ? AND \"Id\" = ?");
    LakebaseSchema timeKeyed =
        LakebaseSchema.builder()
            .column("at", ColumnType.TIMESTAMP)
            .column("v", ColumnType.LONG)
            .build();
    UpsertStatement byTime = UpsertStatement.of(TABLE, timeKeyed, List.of("at"));
    assertThat(byTime.deleteUnnestSql()).isNull();
    assertThat(byTime.deleteSql()).endsWith("WHERE \"at\" = ?");
    UpsertStatement insert = UpsertStatement.of(TABLE, SCHEMA, List.of());
    assertThat(insert.deleteSql()).isNull();
    assertThat(insert.deleteUnnestSql()).isNull();
  }

  @Test
  void shapeOfChangesKeepsTheLastChangeOfEachKeyUpsertsFirstThenDeletes() {
    UpsertStatement upsert = UpsertStatement.of(TABLE, SCHEMA, List.of("Id"));
    Object[][] rows = {
      {"a", 5L, "deleted, then written again", 1.0},
      {"b", 2L, "written", 2.0},
      {"c", 5L, "x", 3.0},
      {"d", 2L, "written, then deleted", 4.0},
      {"e", 9L, "only deleted", 5.0},
      {"f", 1L, "only written", 6.0},
      {"g", 9L, "deleted twice", 7.0},
    };
    boolean[] deletes = {true, false, false, true, true, false, true};
    UpsertStatement.Changes changes = upsert.shape(rows, deletes, 7);
    assertThat(changes).isEqualTo(new UpsertStatement.Changes(2, 2));
    assertThat(Arrays.asList(rows).subList(0, 4))
        .extracting(row -> row[0])
        .containsExactly("f", "c", "d", "g");
    assertThat(Arrays.asList(rows).subList(4, 7)).containsOnlyNulls();
    assertThatThrownBy(
            () ->
                UpsertStatement.of(TABLE, SCHEMA, List.of())
                    .shape(new Object[][] {{"a", 1L, "x", 0.0}}, new boolean[] {true}, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deletes need a key");
  }

  @Test
  void withoutKeyShapeKeepsEveryRowInOrder() {
    UpsertStatement insert = UpsertStatement.of(TABLE, SCHEMA, List.of());
    Object[][] rows = {{"b", 2L, "x", 1.0}, {"a", 1L, "x", 1.0}, {"b", 2L, "x", 1.0}};
    assertThat(insert.shape(rows, 3)).isEqualTo(3);
    assertThat(rows[0][0]).isEqualTo("b");
  }

  @Test
  void describesKeysAndRefusesUnknownKeyColumns() {
    UpsertStatement upsert = UpsertStatement.of(TABLE, SCHEMA, List.of("Id"));
    assertThat(upsert.describeKey(new Object[] {"eu", 7L, "x", 0.0})).isEqualTo("(Id=7)");
    assertThatThrownBy(() -> UpsertStatement.of(TABLE, SCHEMA, List.of("id")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void columnNamesAreChecked() {
    assertThatThrownBy(() -> LakebaseSchema.builder().column("", ColumnType.INT))
        .hasMessageContaining("empty")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("JDBC_STREAMING_SINK_INVALID_SCHEMA");
    assertThatThrownBy(() -> LakebaseSchema.builder().column("c".repeat(64), ColumnType.INT))
        .hasMessageContaining("longer than 63")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("JDBC_STREAMING_SINK_INVALID_SCHEMA");
    assertThatThrownBy(
            () -> LakebaseSchema.builder().column("a", ColumnType.INT).column("a", ColumnType.LONG))
        .hasMessageContaining("declared twice")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("JDBC_STREAMING_SINK_INVALID_SCHEMA");
  }
}
