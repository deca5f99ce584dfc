package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DeltaTypes}: the schema JSON Delta tables get, and the conversion both ways. */
class DeltaTypesTest {
  /** Every type the writer writes, as tables declared them before the schema model. */
  private static final DeltaTableSchema WRITABLE =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("name", ColumnType.STRING)
          .column("qty", ColumnType.INT)
          .column("price", ColumnType.DOUBLE, false)
          .column("paid", ColumnType.BOOLEAN)
          .column("small", ColumnType.decimal(9, 2))
          .column("mid", ColumnType.decimal(18, 4))
          .column("amount", ColumnType.decimal(38, 10), false)
          .column("ts", ColumnType.TIMESTAMP)
          .column("day", ColumnType.DATE)
          .column("region", ColumnType.STRING)
          .column("pday", ColumnType.DATE)
          .partitionedBy("region", "pday")
          .build();

  @Test
  void tablesGetTheSchemaJsonTheyGotBeforeTheModel() {
    // Captured from the writer before the schema model replaced its own Delta type class.
    assertThat(WRITABLE.toStructType().toJson())
        .isEqualTo(
            "{\"type\":\"struct\",\"fields\":["
                + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
                + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"qty\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"price\",\"type\":\"double\",\"nullable\":false,\"metadata\":{}},"
                + "{\"name\":\"paid\",\"type\":\"boolean\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"small\",\"type\":\"decimal(9,2)\",\"nullable\":true,"
                + "\"metadata\":{}},"
                + "{\"name\":\"mid\",\"type\":\"decimal(18,4)\",\"nullable\":true,"
                + "\"metadata\":{}},"
                + "{\"name\":\"amount\",\"type\":\"decimal(38,10)\",\"nullable\":false,"
                + "\"metadata\":{}},"
                + "{\"name\":\"ts\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"day\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"region\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
                + "{\"name\":\"pday\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}}]}");
  }

  @Test
  void everyModelTypeButJsonRoundTripsThroughKernel() {
    RowSchema all =
        RowSchema.builder()
            .column("s", ColumnType.STRING, false)
            .column("b", ColumnType.BOOLEAN)
            .column("i8", ColumnType.BYTE)
            .column("i16", ColumnType.SHORT)
            .column("i32", ColumnType.INT)
            .column("i64", ColumnType.LONG)
            .column("f", ColumnType.FLOAT)
            .column("d", ColumnType.DOUBLE)
            .column("n", ColumnType.decimal(38, 0))
            .column("day", ColumnType.DATE)
            .column("ts", ColumnType.TIMESTAMP)
            .column("ntz", ColumnType.TIMESTAMP_NTZ)
            .column("bin", ColumnType.BINARY)
            .column("tags", new ColumnType.Array(ColumnType.STRING, false))
            .column("m", ColumnType.map(ColumnType.STRING, ColumnType.array(ColumnType.DATE)))
            .column(
                "st",
                ColumnType.struct(
                    RowSchema.builder()
                        .column("x", ColumnType.INT, false)
                        .column("y", ColumnType.decimal(5, 1))
                        .build()))
            .build();
    StructType kernel = DeltaTypes.toKernel(all);
    assertThat(kernel.at(2).getDataType().toString()).isEqualTo("byte");
    assertThat(kernel.at(11).getDataType().toString()).isEqualTo("timestamp_ntz");
    assertThat(DeltaTypes.fromKernel(kernel)).isEqualTo(all);
    assertThat(
            DeltaTypes.fromKernel(
                io.lakestream.connectors.delta.kernel.KernelSchemaJson.parse(kernel.toJson())))
        .isEqualTo(all);
  }

  @Test
  void jsonHasNoDeltaTypeAndVariantNoModelType() {
    assertThatThrownBy(() -> DeltaTypes.toKernel(ColumnType.JSON))
        .isInstanceOf(LakestreamException.class)
        .hasMessageStartingWith("[UNSUPPORTED_DATA_TYPE] Delta has no json type");
    assertThatThrownBy(() -> DeltaTypes.fromKernel(new StructType().add("v", VariantType.VARIANT)))
        .hasMessageStartingWith("[UNSUPPORTED_DATA_TYPE] Column 'v' is of Delta type variant");
  }

  @Test
  void theWriterRefusesJsonAlsoInsideANestedTypeNamingThePath() {
    for (ColumnType type :
        List.of(
            ColumnType.JSON,
            ColumnType.array(ColumnType.JSON),
            ColumnType.map(ColumnType.STRING, ColumnType.JSON),
            ColumnType.struct(RowSchema.builder().column("x", ColumnType.JSON).build()))) {
      assertThatThrownBy(
              () ->
                  DeltaTableSchema.builder()
                      .column("id", ColumnType.LONG)
                      .column("v", type)
                      .build())
          .as(type.toString())
          .isInstanceOf(LakestreamException.class)
          .hasMessageStartingWith("[UNSUPPORTED_DATA_TYPE] Column 'v")
          .hasMessageContaining("is json, which the Delta writer does not write");
    }
  }
}
