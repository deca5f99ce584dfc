package io.lakestream.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowSchemaTest {
  private static final RowSchema SCHEMA =
      RowSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("Name", ColumnType.STRING)
          .column(new Column("amount", ColumnType.decimal(12, 2)))
          .build();

  @Test
  void columnsKeepTheirOrderNamesAndNullability() {
    assertThat(SCHEMA.columnNames()).containsExactly("id", "Name", "amount");
    assertThat(SCHEMA.size()).isEqualTo(3);
    assertThat(SCHEMA.column(0)).isEqualTo(new Column("id", ColumnType.LONG, false));
    assertThat(SCHEMA.column(2).nullable()).isTrue();
    assertThat(SCHEMA.indexOf("Name")).isEqualTo(1);
    assertThat(SCHEMA.indexOf("name")).isEqualTo(-1);
    assertThat(SCHEMA.toString())
        .isEqualTo(
            "[Column[name=id, type=long, nullable=false], Column[name=Name, type=string,"
                + " nullable=true], Column[name=amount, type=decimal(12,2), nullable=true]]");
  }

  @Test
  void schemasAreValues() {
    assertThat(RowSchema.of(SCHEMA.columns())).isEqualTo(SCHEMA).hasSameHashCodeAs(SCHEMA);
    assertThat(RowSchema.of(SCHEMA.column(0))).isNotEqualTo(SCHEMA);
    assertThat(RowSchema.of().columns()).isEmpty();
  }

  @Test
  void aNameDeclaredTwiceIsRefusedAtOnce() {
    RowSchema.Builder builder = RowSchema.builder().column("a", ColumnType.INT);
    assertThatThrownBy(() -> builder.column("a", ColumnType.LONG))
        .isInstanceOf(LakestreamException.class)
        .hasMessage(
            "[DUPLICATE_COLUMN] column 'a' is declared twice; give each column its own name");
    assertThat(
            LakestreamException.errorClassOf(
                catchOf(
                    () ->
                        RowSchema.of(
                            List.of(
                                new Column("b", ColumnType.INT),
                                new Column("b", ColumnType.INT))))))
        .isEqualTo("DUPLICATE_COLUMN");
    assertThat(
            RowSchema.of(new Column("a", ColumnType.INT), new Column("A", ColumnType.INT)).size())
        .isEqualTo(2); // exact names: case matters here
  }

  private static Throwable catchOf(Runnable r) {
    try {
      r.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }
}
