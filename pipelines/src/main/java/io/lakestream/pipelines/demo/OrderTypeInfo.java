package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.operators.types.FixedSerializerTypeInfo;

/**
 * Flink type information for {@link Order} streams that exchange orders between tasks but keep none
 * in state: always {@link OrderSerializer} (no reflection, never Kryo). Not a key type.
 */
@Internal
public final class OrderTypeInfo extends FixedSerializerTypeInfo<Order> {
  private static final long serialVersionUID = 1L;

  /** The one instance. */
  public static final OrderTypeInfo INSTANCE = new OrderTypeInfo();

  private OrderTypeInfo() {
    super(Order.class, OrderSerializer.INSTANCE, false);
  }
}
