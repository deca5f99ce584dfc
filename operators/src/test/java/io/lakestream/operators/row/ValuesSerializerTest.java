package io.lakestream.operators.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.math.BigDecimal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.api.Test;

class ValuesSerializerTest extends SerializerTestBase<Values> {

  @Override
  protected TypeSerializer<Values> createSerializer() {
    return ValuesSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<Values> getTypeClass() {
    return Values.class;
  }

  @Override
  protected Values[] getTestData() {
    return new Values[] {
      Values.of(),
      Values.of("ad-1"),
      Values.of("ad-1", 42L, 2.5, true, false, null),
      Values.of(7, (short) 3, (byte) 1, 1.5f, new StringBuilder("sb")),
      Values.of("\u00e9t\u00e9 \u2603", Long.MIN_VALUE, Double.NaN)
    };
  }

  @Test
  void widensNumbersAndCompareByValue() {
    assertThat(Values.of(7, 1.5f)).isEqualTo(Values.of(7L, 1.5d));
    assertThat(Values.of(7).hashCode()).isEqualTo(Values.of(7L).hashCode());
    assertThat(Values.of("a", null).asList()).containsExactly("a", null);
  }

  @Test
  void refusesOtherTypesNamingTheColumn() {
    KeyColumns<BigDecimal> keys = KeyColumns.of("amount", (BigDecimal b) -> b);
    assertThatThrownBy(() -> keys.getKey(BigDecimal.ONE))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("key column 'amount'")
        .hasMessageContaining("java.math.BigDecimal")
        .hasMessageContaining("toPlainString")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_KEY_COLUMNS");
  }

  @Test
  void aPojoFieldOfTypeValuesUsesThisSerializerNotKryo() {
    TypeInformation<Holder> info = TypeInformation.of(Holder.class);
    assertThat(info).isInstanceOf(PojoTypeInfo.class);
    assertThat(((PojoTypeInfo<Holder>) info).getTypeAt("key")).isSameAs(ValuesTypeInfo.INSTANCE);
  }

  /** A POJO with a Values field. */
  public static class Holder {
    public Values key;
    public long n;
  }
}
