package io.lakestream.operators.window;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes a {@link WindowAccumulator} as five fixed fields (40 bytes): rows, values, sum, min,
 * max. Version 1 of the format.
 */
@Internal
public final class WindowAccumulatorSerializer extends TypeSerializerSingleton<WindowAccumulator> {
  private static final long serialVersionUID = 1L;

  public static final WindowAccumulatorSerializer INSTANCE = new WindowAccumulatorSerializer();

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public WindowAccumulator createInstance() {
    return new WindowAccumulator();
  }

  @Override
  public WindowAccumulator copy(WindowAccumulator from) {
    return new WindowAccumulator(from.rows, from.values, from.sum, from.min, from.max);
  }

  @Override
  public WindowAccumulator copy(WindowAccumulator from, WindowAccumulator reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return 40;
  }

  @Override
  public void serialize(WindowAccumulator record, DataOutputView target) throws IOException {
    target.writeLong(record.rows);
    target.writeLong(record.values);
    target.writeDouble(record.sum);
    target.writeDouble(record.min);
    target.writeDouble(record.max);
  }

  @Override
  public WindowAccumulator deserialize(DataInputView source) throws IOException {
    return new WindowAccumulator(
        source.readLong(),
        source.readLong(),
        source.readDouble(),
        source.readDouble(),
        source.readDouble());
  }

  @Override
  public WindowAccumulator deserialize(WindowAccumulator reuse, DataInputView source)
      throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    target.write(source, 40);
  }

  @Override
  public TypeSerializerSnapshot<WindowAccumulator> snapshotConfiguration() {
    return new WindowAccumulatorSerializerSnapshot();
  }

  /** Snapshot of the stateless serializer. */
  public static final class WindowAccumulatorSerializerSnapshot
      extends SimpleTypeSerializerSnapshot<WindowAccumulator> {
    public WindowAccumulatorSerializerSnapshot() {
      super(() -> INSTANCE);
    }
  }
}
