package io.lakestream.connectors.schema.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.connectors.schema.RowSchema;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class FlinkRowFieldsTest {
  private static final RowSchema SCHEMA =
      RowSchema.of(
          new Column("region", ColumnType.STRING),
          new Column("Id", ColumnType.LONG),
          new Column("select", ColumnType.STRING),
          new Column("we\"ird", ColumnType.DOUBLE));

  @Test
  void flinkRowsAreReadByNameOrPosition() {
    RowFields<Row> fields = FlinkRowFields.of(SCHEMA);
    Row named = Row.withNames();
    named.setField("Id", 5L);
    named.setField("we\"ird", 1.5);
    named.setField("region", "eu");
    named.setField("select", "s");
    assertThat(fields.toRow(named)).containsExactly("eu", 5L, "s", 1.5);
    assertThat(fields.toRow(Row.of("us", 6L, "t", 2.5))).containsExactly("us", 6L, "t", 2.5);
  }
}
