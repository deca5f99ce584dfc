package io.lakestream.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnTypeTest {
  private static final ColumnType NESTED =
      ColumnType.struct(
          RowSchema.builder()
              .column("id", ColumnType.LONG, false)
              .column("tags", ColumnType.array(ColumnType.STRING))
              .column("odd name`", ColumnType.map(ColumnType.STRING, ColumnType.decimal(12, 2)))
              .build());

  private static final List<ColumnType> ALL =
      List.of(
          ColumnType.STRING,
          ColumnType.BOOLEAN,
          ColumnType.BYTE,
          ColumnType.SHORT,
          ColumnType.INT,
          ColumnType.LONG,
          ColumnType.FLOAT,
          ColumnType.DOUBLE,
          ColumnType.decimal(12, 2),
          ColumnType.DATE,
          ColumnType.TIMESTAMP,
          ColumnType.TIMESTAMP_NTZ,
          ColumnType.BINARY,
          ColumnType.JSON,
          ColumnType.array(ColumnType.INT),
          ColumnType.map(ColumnType.STRING, ColumnType.array(ColumnType.DATE)),
          NESTED);

  @Test
  void sqlIsSparkDdlAndToStringTheLowerCaseName() {
    assertThat(ALL.stream().map(ColumnType::sql))
        .containsExactly(
            "STRING",
            "BOOLEAN",
            "TINYINT",
            "SMALLINT",
            "INT",
            "BIGINT",
            "FLOAT",
            "DOUBLE",
            "DECIMAL(12,2)",
            "DATE",
            "TIMESTAMP",
            "TIMESTAMP_NTZ",
            "BINARY",
            "JSON",
            "ARRAY<INT>",
            "MAP<STRING, ARRAY<DATE>>",
            "STRUCT<`id`: BIGINT NOT NULL, `tags`: ARRAY<STRING>,"
                + " `odd name```: MAP<STRING, DECIMAL(12,2)>>");
    assertThat(ALL.stream().map(ColumnType::toString))
        .containsExactly(
            "string",
            "boolean",
            "byte",
            "short",
            "int",
            "long",
            "float",
            "double",
            "decimal(12,2)",
            "date",
            "timestamp",
            "timestamp_ntz",
            "binary",
            "json",
            "array<int>",
            "map<string,array<date>>",
            "struct<id:long,tags:array<string>,odd name`:map<string,decimal(12,2)>>");
  }

  @Test
  void parseReadsWhatSqlWrites() {
    for (ColumnType type : ALL) {
      assertThat(ColumnType.parse(type.sql())).as(type.sql()).isEqualTo(type);
    }
  }

  @Test
  void parseTakesAliasesAnyCaseAndWhiteSpace() {
    assertThat(ColumnType.parse(" long ")).isEqualTo(ColumnType.LONG);
    assertThat(ColumnType.parse("Integer")).isEqualTo(ColumnType.INT);
    assertThat(ColumnType.parse("byte")).isEqualTo(ColumnType.BYTE);
    assertThat(ColumnType.parse("short")).isEqualTo(ColumnType.SHORT);
    assertThat(ColumnType.parse("real")).isEqualTo(ColumnType.FLOAT);
    assertThat(ColumnType.parse("decimal( 12 , 2 )")).isEqualTo(ColumnType.decimal(12, 2));
    assertThat(ColumnType.parse("numeric(7)")).isEqualTo(ColumnType.decimal(7, 0));
    assertThat(ColumnType.parse("DECIMAL")).isEqualTo(ColumnType.decimal(10, 0));
    assertThat(ColumnType.parse("struct<a int not null, b:string>"))
        .isEqualTo(
            ColumnType.struct(
                RowSchema.builder()
                    .column("a", ColumnType.INT, false)
                    .column("b", ColumnType.STRING)
                    .build()));
    assertThat(ColumnType.parse("STRUCT<>")).isEqualTo(ColumnType.struct(RowSchema.of()));
  }

  @Test
  void decimalsOutOfRangeAreRefused() {
    assertThat(ColumnType.decimal(38, 38).precision()).isEqualTo(38);
    assertThat(ColumnType.decimal(1, 0).scale()).isZero();
    for (int[] bad : new int[][] {{0, 0}, {39, 0}, {5, 6}, {5, -1}}) {
      assertThatThrownBy(() -> ColumnType.decimal(bad[0], bad[1]))
          .isInstanceOf(LakestreamException.class)
          .hasMessageContaining("[INVALID_DECIMAL] decimal(" + bad[0] + "," + bad[1] + ")")
          .hasMessageContaining("1 <= precision <= 38 and 0 <= scale <= precision");
    }
    assertThatThrownBy(() -> ColumnType.parse("DECIMAL(50,2)"))
        .hasMessageStartingWith("[INVALID_DECIMAL]");
  }

  @Test
  void unknownNamesAndBadTextAreRefusedWithTheirClass() {
    assertThatThrownBy(() -> ColumnType.parse("ARRAY<VARCHAR>"))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("[UNSUPPORTED_DATA_TYPE] unknown data type 'VARCHAR'")
        .hasMessageContaining("TIMESTAMP_NTZ");
    assertThatThrownBy(() -> ColumnType.parse("ARRAY<INT"))
        .hasMessageStartingWith("[INVALID_TYPE_SYNTAX]")
        .hasMessageContaining("expected '>' at position 10 but found the end");
    assertThatThrownBy(() -> ColumnType.parse("INT INT"))
        .hasMessageContaining("expected the end of the type at position 5");
    assertThatThrownBy(() -> ColumnType.parse(""))
        .hasMessageContaining("expected a type name at position 1");
    assertThatThrownBy(() -> ColumnType.parse("STRUCT<a INT, a STRING>"))
        .hasMessageStartingWith("[DUPLICATE_COLUMN] column 'a' is declared twice");
  }

  @Test
  void typesAreValuesThatSurviveJavaSerialization() throws Exception {
    for (ColumnType type : ALL) {
      assertThat(roundTrip(type)).isEqualTo(type).hasSameHashCodeAs(type);
    }
    assertThat(roundTrip(ColumnType.STRING)).isSameAs(ColumnType.STRING);
    assertThat(ColumnType.decimal(12, 2)).isNotEqualTo(ColumnType.decimal(12, 3));
  }

  @Test
  void kindsSayWhichAreNested() {
    assertThat(ALL.stream().filter(t -> t.kind().isNested()).map(ColumnType::kind))
        .containsExactly(ColumnType.Kind.ARRAY, ColumnType.Kind.MAP, ColumnType.Kind.STRUCT);
  }

  private static Object roundTrip(Object value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return in.readObject();
    }
  }
}
