package io.lakestream.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import org.junit.jupiter.api.Test;

class TypeSupportTest {
  @Test
  void coreTypesAreTheOnesEveryConnectorTakes() {
    assertThat(TypeSupport.CORE.supports(ColumnType.decimal(3, 1))).isTrue();
    assertThat(TypeSupport.CORE.supports(ColumnType.TIMESTAMP)).isTrue();
    assertThat(TypeSupport.CORE.supports(ColumnType.TIMESTAMP_NTZ)).isFalse();
    assertThat(TypeSupport.CORE.supports(ColumnType.array(ColumnType.INT))).isFalse();
    assertThat(TypeSupport.CORE)
        .hasToString("string, boolean, int, long, double, decimal(p,s), date or timestamp");
  }

  @Test
  void plusAddsKindsWithoutChangingTheOriginal() {
    TypeSupport wider = TypeSupport.CORE.plus(ColumnType.Kind.BINARY);
    assertThat(wider.supports(ColumnType.BINARY)).isTrue();
    assertThat(TypeSupport.CORE.supports(ColumnType.BINARY)).isFalse();
    assertThat(wider).isNotEqualTo(TypeSupport.CORE);
    assertThat(TypeSupport.CORE.plus()).isEqualTo(TypeSupport.CORE);
  }

  @Test
  void checkNamesTheColumnItsTypeAndTheSupportedOnes() {
    TypeSupport.CORE.check(new Column("ok", ColumnType.LONG), "the test sink");
    assertThatThrownBy(
            () -> TypeSupport.CORE.check(new Column("raw", ColumnType.BINARY), "the test sink"))
        .isInstanceOf(LakestreamException.class)
        .hasMessage(
            "[UNSUPPORTED_DATA_TYPE] Column 'raw' is binary, which the test sink does not write;"
                + " declare it as one of string, boolean, int, long, double, decimal(p,s), date or"
                + " timestamp");
  }
}
