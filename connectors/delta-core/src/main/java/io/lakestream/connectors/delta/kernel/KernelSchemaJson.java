package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.internal.types.DataTypeJsonSerDe;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;

/**
 * A table schema from its Delta JSON form. Wraps Kernel's {@code types.DataTypeJsonSerDe}: the
 * public {@link StructType#toJson()} writes the form, but nothing public reads it back, and readers
 * shipped to Flink tasks carry the schema as that JSON (Kernel's types are not serializable).
 */
@Internal
public final class KernelSchemaJson {
  private KernelSchemaJson() {}

  /**
   * The schema {@code json} ({@link StructType#toJson()}) describes.
   *
   * @throws IllegalArgumentException (or another unchecked Kernel exception) if it is not one
   */
  public static StructType parse(String json) {
    return DataTypeJsonSerDe.deserializeStructType(json);
  }
}
