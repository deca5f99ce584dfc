package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link PostgresTypes}: the CREATE TABLE types, the fit of existing columns, refusals. */
class PostgresTypesTest {
  @Test
  void createdColumnsGetTheDocumentedPostgresTypes() {
    Map<ColumnType, String> expected = new LinkedHashMap<>();
    expected.put(ColumnType.STRING, "TEXT");
    expected.put(ColumnType.LONG, "BIGINT");
    expected.put(ColumnType.INT, "INTEGER");
    expected.put(ColumnType.DOUBLE, "DOUBLE PRECISION");
    expected.put(ColumnType.BOOLEAN, "BOOLEAN");
    expected.put(ColumnType.decimal(12, 2), "NUMERIC(12,2)");
    expected.put(ColumnType.TIMESTAMP, "TIMESTAMPTZ");
    expected.put(ColumnType.TIMESTAMP_NTZ, "TIMESTAMP");
    expected.put(ColumnType.DATE, "DATE");
    expected.put(ColumnType.BINARY, "BYTEA");
    expected.put(ColumnType.JSON, "JSONB");
    expected.forEach((type, sql) -> assertThat(PostgresTypes.sqlType(type)).isEqualTo(sql));
    assertThat(expected.keySet().stream().map(PostgresTypes::describe))
        .containsExactly(
            "STRING",
            "LONG",
            "INT",
            "DOUBLE",
            "BOOLEAN",
            "DECIMAL(12,2)",
            "TIMESTAMP",
            "TIMESTAMP_NTZ",
            "DATE",
            "BINARY",
            "JSON");
  }

  @Test
  void existingColumnsFitByTheirFormatType() {
    assertThat(PostgresTypes.fits(ColumnType.STRING, "character varying(5)")).isTrue();
    assertThat(PostgresTypes.fits(ColumnType.LONG, "numeric")).isTrue();
    assertThat(PostgresTypes.fits(ColumnType.DATE, "timestamp without time zone")).isTrue();
    assertThat(PostgresTypes.fits(ColumnType.JSON, "json")).isTrue();
    assertThat(PostgresTypes.fits(ColumnType.BOOLEAN, "smallint")).isFalse();
    assertThat(PostgresTypes.fits(ColumnType.STRING, "jsonb")).isFalse();
  }

  @Test
  void binaryAndJsonCannotBeKeys() {
    assertThat(PostgresTypes.isComparable(ColumnType.BINARY)).isFalse();
    assertThat(PostgresTypes.isComparable(ColumnType.JSON)).isFalse();
    assertThat(PostgresTypes.isComparable(ColumnType.TIMESTAMP_NTZ)).isTrue();
  }

  @Test
  void typesTheSinkDoesNotWriteAreRefusedWhenDeclared() {
    for (ColumnType type :
        List.of(
            ColumnType.BYTE,
            ColumnType.SHORT,
            ColumnType.FLOAT,
            ColumnType.array(ColumnType.INT),
            ColumnType.map(ColumnType.STRING, ColumnType.INT),
            ColumnType.struct(RowSchema.builder().column("x", ColumnType.INT).build()))) {
      assertThatThrownBy(() -> LakebaseSchema.builder().column("v", type))
          .as(type.toString())
          .isInstanceOf(LakestreamException.class)
          .hasMessage(
              "[UNSUPPORTED_DATA_TYPE] Column 'v' is "
                  + type
                  + ", which the Lakebase sink does not write; declare it as one of string,"
                  + " boolean, int, long, double, decimal(p,s), date, timestamp, timestamp_ntz,"
                  + " binary or json");
    }
  }

  @Test
  void aModelSchemaBecomesASinkSchemaWithTheSameChecks() {
    RowSchema rows =
        RowSchema.builder()
            .column("Id", ColumnType.LONG, false)
            .column("v", ColumnType.STRING)
            .build();
    assertThat(LakebaseSchema.of(rows).rowSchema()).isEqualTo(rows);
    assertThatThrownBy(() -> LakebaseSchema.of(RowSchema.of()))
        .hasMessageContaining("needs at least one column")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("JDBC_STREAMING_SINK_INVALID_SCHEMA");
    assertThatThrownBy(
            () -> LakebaseSchema.of(RowSchema.builder().column("a\u0000", ColumnType.INT).build()))
        .hasMessageContaining("contains a NUL character")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("JDBC_STREAMING_SINK_INVALID_SCHEMA");
  }
}
