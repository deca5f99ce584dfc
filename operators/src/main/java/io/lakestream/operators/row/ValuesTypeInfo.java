package io.lakestream.operators.row;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for {@link Values}: always {@link ValuesSerializer}, never Kryo. Usable as
 * a key type ({@code keyBy}), since equality and hashing are by value.
 */
@Internal
public final class ValuesTypeInfo extends TypeInformation<Values> {
  private static final long serialVersionUID = 1L;

  /** The one instance. */
  public static final ValuesTypeInfo INSTANCE = new ValuesTypeInfo();

  private ValuesTypeInfo() {}

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
  public Class<Values> getTypeClass() {
    return Values.class;
  }

  @Override
  public boolean isKeyType() {
    return true;
  }

  @Override
  public TypeSerializer<Values> createSerializer(SerializerConfig config) {
    return ValuesSerializer.INSTANCE;
  }

  @Override
  @Deprecated
  public TypeSerializer<Values> createSerializer(ExecutionConfig config) {
    return ValuesSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "Values";
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof ValuesTypeInfo;
  }

  @Override
  public int hashCode() {
    return ValuesTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof ValuesTypeInfo;
  }
}
