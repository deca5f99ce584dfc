package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information for {@link Order} streams that exchange orders between tasks but keep none
 * in state: always {@link OrderSerializer} (no reflection, never Kryo). Not a key type.
 */
@Internal
public final class OrderTypeInfo extends TypeInformation<Order> {
  private static final long serialVersionUID = 1L;

  /** The one instance. */
  public static final OrderTypeInfo INSTANCE = new OrderTypeInfo();

  private OrderTypeInfo() {}

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
  public Class<Order> getTypeClass() {
    return Order.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<Order> createSerializer(SerializerConfig config) {
    return OrderSerializer.INSTANCE;
  }

  @Override
  @Deprecated
  public TypeSerializer<Order> createSerializer(ExecutionConfig config) {
    return OrderSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "Order";
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof OrderTypeInfo;
  }

  @Override
  public int hashCode() {
    return OrderTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof OrderTypeInfo;
  }
}
