package io.lakestream.operators.types;

import io.lakestream.api.annotation.Internal;
import java.util.Objects;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;

/**
 * Type information that always hands out one stateless serializer instance (a {@link
 * TypeSerializerSingleton}), whatever the execution config says: a record type with a hand-written
 * serializer never reaches Kryo or the POJO serializer. Two instances are equal when they describe
 * the same class with the same serializer class.
 *
 * <p>Declare a key type only when the class's {@code equals} and {@code hashCode} are by value:
 * Flink partitions and groups keys with them.
 *
 * @param <T> the record type
 */
@Internal
public class FixedSerializerTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private final TypeSerializer<T> serializer;
  private final boolean keyType;

  /**
   * @param serializer the serializer every task shares
   * @param keyType whether {@code keyBy} may use the type
   */
  protected FixedSerializerTypeInfo(
      Class<T> type, TypeSerializerSingleton<T> serializer, boolean keyType) {
    this.type = Objects.requireNonNull(type, "type");
    this.serializer = Objects.requireNonNull(serializer, "serializer");
    this.keyType = keyType;
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<T> getTypeClass() {
    return type;
  }

  @Override
  public boolean isKeyType() {
    return keyType;
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return serializer;
  }

  @Override
  @Deprecated
  public TypeSerializer<T> createSerializer(ExecutionConfig config) {
    return serializer;
  }

  @Override
  public String toString() {
    return type.getSimpleName();
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof FixedSerializerTypeInfo<?> other
        && other.canEqual(this)
        && type.equals(other.type)
        && serializer.getClass().equals(other.serializer.getClass());
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, serializer.getClass());
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof FixedSerializerTypeInfo;
  }
}
