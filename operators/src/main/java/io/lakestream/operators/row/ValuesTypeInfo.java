package io.lakestream.operators.row;

import io.lakestream.api.annotation.Internal;
import io.lakestream.operators.types.FixedSerializerTypeInfo;

/**
 * Flink type information for {@link Values}: always {@link ValuesSerializer}, never Kryo. Usable as
 * a key type ({@code keyBy}), since equality and hashing are by value.
 */
@Internal
public final class ValuesTypeInfo extends FixedSerializerTypeInfo<Values> {
  private static final long serialVersionUID = 1L;

  /** The one instance. */
  public static final ValuesTypeInfo INSTANCE = new ValuesTypeInfo();

  private ValuesTypeInfo() {
    super(Values.class, ValuesSerializer.INSTANCE, true);
  }
}
