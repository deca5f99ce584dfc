package io.lakestream.operators.join;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes a {@link BufferedRow}: the matched flag (one byte) then the row with the row type's
 * own serializer. Its snapshot is composite, so a change of the row serializer is checked for
 * compatibility on restore like any nested serializer.
 *
 * @param <T> the row type
 */
@Internal
public final class BufferedRowSerializer<T> extends TypeSerializer<BufferedRow<T>> {
  private static final long serialVersionUID = 1L;

  private final TypeSerializer<T> rows;

  public BufferedRowSerializer(TypeSerializer<T> rows) {
    this.rows = Objects.requireNonNull(rows, "rows");
  }

  TypeSerializer<T> rowSerializer() {
    return rows;
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<BufferedRow<T>> duplicate() {
    TypeSerializer<T> copy = rows.duplicate();
    return copy == rows ? this : new BufferedRowSerializer<>(copy);
  }

  @Override
  public BufferedRow<T> createInstance() {
    return new BufferedRow<>(rows.createInstance(), false);
  }

  @Override
  public BufferedRow<T> copy(BufferedRow<T> from) {
    return new BufferedRow<>(rows.copy(from.row), from.matched);
  }

  @Override
  public BufferedRow<T> copy(BufferedRow<T> from, BufferedRow<T> reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(BufferedRow<T> record, DataOutputView target) throws IOException {
    target.writeBoolean(record.matched);
    rows.serialize(record.row, target);
  }

  @Override
  public BufferedRow<T> deserialize(DataInputView source) throws IOException {
    boolean matched = source.readBoolean();
    return new BufferedRow<>(rows.deserialize(source), matched);
  }

  @Override
  public BufferedRow<T> deserialize(BufferedRow<T> reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    target.writeBoolean(source.readBoolean());
    rows.copy(source, target);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BufferedRowSerializer && rows.equals(((BufferedRowSerializer<?>) o).rows);
  }

  @Override
  public int hashCode() {
    return rows.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<BufferedRow<T>> snapshotConfiguration() {
    return new BufferedRowSerializerSnapshot<>(this);
  }

  /** Snapshot: version 1, nesting the row serializer's snapshot. */
  public static final class BufferedRowSerializerSnapshot<T>
      extends CompositeTypeSerializerSnapshot<BufferedRow<T>, BufferedRowSerializer<T>> {
    private static final int VERSION = 1;

    public BufferedRowSerializerSnapshot() {}

    BufferedRowSerializerSnapshot(BufferedRowSerializer<T> serializer) {
      super(serializer);
    }

    @Override
    protected int getCurrentOuterSnapshotVersion() {
      return VERSION;
    }

    @Override
    protected TypeSerializer<?>[] getNestedSerializers(BufferedRowSerializer<T> outer) {
      return new TypeSerializer<?>[] {outer.rows};
    }

    @Override
    @SuppressWarnings("unchecked")
    protected BufferedRowSerializer<T> createOuterSerializerWithNestedSerializers(
        TypeSerializer<?>[] nested) {
      return new BufferedRowSerializer<>((TypeSerializer<T>) nested[0]);
    }
  }
}
