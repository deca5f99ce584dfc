package io.lakestream.pipelines.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class OrderSerializerTest extends SerializerTestBase<Order> {

  @Override
  protected TypeSerializer<Order> createSerializer() {
    return OrderSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<Order> getTypeClass() {
    return Order.class;
  }

  @Override
  protected Order[] getTestData() {
    return new Order[] {
      new Order(),
      new Order("e-1", "o-1", "c-1", new BigDecimal("12.30"), "EUR", 1_700_000_000_123L),
      new Order("e-2", null, null, null, null, Long.MIN_VALUE),
      new Order("\u00e9t\u00e9 \u2603 \ud83d\ude00", "", "c", BigDecimal.ZERO, "", -1),
      new Order("e-3", "o", "c", new BigDecimal("-9223372036854775808.5"), "USD", 0),
      new Order("e-4", "o", "c", new BigDecimal("1e999"), "USD", Long.MAX_VALUE),
      new Order("e-5", "o", "c", new BigDecimal("-0.01"), "USD", 5)
    };
  }

  /** The amount comes back with its scale, so the Delta row is the same as without the exchange. */
  @Test
  void keepsTheAmountsScaleAndUnscaledValue() throws Exception {
    for (String amount : new String[] {"12.30", "12.3", "0.00", "1E+3", "123456789012.34"}) {
      Order order = new Order("e", "o", "c", new BigDecimal(amount), "EUR", 1);
      DataOutputSerializer out = new DataOutputSerializer(64);
      OrderSerializer.INSTANCE.serialize(order, out);
      Order back =
          OrderSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
      assertThat(back.amount.scale()).as(amount).isEqualTo(order.amount.scale());
      assertThat(back.amount.unscaledValue()).as(amount).isEqualTo(order.amount.unscaledValue());
      assertThat(back).isEqualTo(order);
    }
  }
}
