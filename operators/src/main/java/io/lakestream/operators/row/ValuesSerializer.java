package io.lakestream.operators.row;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link Values}: the arity, then per value a one-byte tag and the value. The format is
 * deterministic (equal tuples give equal bytes), as RocksDB keys require. Version 1; a change of
 * format must add a new snapshot version.
 */
@Internal
public final class ValuesSerializer extends TypeSerializerSingleton<Values> {
  private static final long serialVersionUID = 1L;

  /** The one instance (the serializer is stateless). */
  public static final ValuesSerializer INSTANCE = new ValuesSerializer();

  private static final byte NULL = 0;
  private static final byte STRING = 1;
  private static final byte LONG = 2;
  private static final byte DOUBLE = 3;
  private static final byte TRUE = 4;
  private static final byte FALSE = 5;

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public Values createInstance() {
    return Values.of();
  }

  @Override
  public Values copy(Values from) {
    return from;
  }

  @Override
  public Values copy(Values from, Values reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(Values record, DataOutputView target) throws IOException {
    target.writeInt(record.size());
    for (int i = 0; i < record.size(); i++) {
      Object v = record.get(i);
      if (v == null) {
        target.writeByte(NULL);
      } else if (v instanceof String) {
        target.writeByte(STRING);
        target.writeUTF((String) v);
      } else if (v instanceof Long) {
        target.writeByte(LONG);
        target.writeLong((Long) v);
      } else if (v instanceof Double) {
        target.writeByte(DOUBLE);
        target.writeDouble((Double) v);
      } else {
        target.writeByte((Boolean) v ? TRUE : FALSE);
      }
    }
  }

  @Override
  public Values deserialize(DataInputView source) throws IOException {
    int n = source.readInt();
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      byte tag = source.readByte();
      switch (tag) {
        case NULL:
          values[i] = null;
          break;
        case STRING:
          values[i] = source.readUTF();
          break;
        case LONG:
          values[i] = source.readLong();
          break;
        case DOUBLE:
          values[i] = source.readDouble();
          break;
        case TRUE:
          values[i] = Boolean.TRUE;
          break;
        case FALSE:
          values[i] = Boolean.FALSE;
          break;
        default:
          throw new IOException("corrupt Values state: unknown value tag " + tag);
      }
    }
    return Values.ofNormalized(values);
  }

  @Override
  public Values deserialize(Values reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<Values> snapshotConfiguration() {
    return new ValuesSerializerSnapshot();
  }

  /** Snapshot of the stateless {@link ValuesSerializer}. */
  public static final class ValuesSerializerSnapshot extends SimpleTypeSerializerSnapshot<Values> {
    public ValuesSerializerSnapshot() {
      super(() -> INSTANCE);
    }
  }
}
