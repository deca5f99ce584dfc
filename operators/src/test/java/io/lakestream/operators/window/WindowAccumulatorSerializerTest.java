package io.lakestream.operators.window;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class WindowAccumulatorSerializerTest extends SerializerTestBase<WindowAccumulator> {

  @Override
  protected TypeSerializer<WindowAccumulator> createSerializer() {
    return WindowAccumulatorSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return 40;
  }

  @Override
  protected Class<WindowAccumulator> getTypeClass() {
    return WindowAccumulator.class;
  }

  @Override
  protected WindowAccumulator[] getTestData() {
    WindowAccumulator countOnly = new WindowAccumulator();
    countOnly.add(null);
    countOnly.add(null);
    WindowAccumulator values = new WindowAccumulator();
    values.add(3.5);
    values.add(-1.0);
    values.add(null);
    return new WindowAccumulator[] {new WindowAccumulator(), countOnly, values};
  }
}
