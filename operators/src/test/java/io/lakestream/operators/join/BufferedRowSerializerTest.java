package io.lakestream.operators.join;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;

class BufferedRowSerializerTest extends SerializerTestBase<BufferedRow<String>> {

  @Override
  protected TypeSerializer<BufferedRow<String>> createSerializer() {
    return new BufferedRowSerializer<>(StringSerializer.INSTANCE);
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  protected Class<BufferedRow<String>> getTypeClass() {
    return (Class) BufferedRow.class;
  }

  @Override
  @SuppressWarnings("unchecked")
  protected BufferedRow<String>[] getTestData() {
    return new BufferedRow[] {
      new BufferedRow<>("a", false), new BufferedRow<>("", true), new BufferedRow<>("ümlaut", true)
    };
  }
}
