package io.lakestream.operators.row;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * An immutable tuple of column values: the grouping and deduplication key of the event-time
 * operators. Each value is one of {@code null}, {@link String}, {@link Long}, {@link Double} or
 * {@link Boolean}; {@link #of} widens {@code Integer}/{@code Short}/{@code Byte} to {@code Long},
 * {@code Float} to {@code Double} and any {@link CharSequence} to {@code String}, and refuses every
 * other type with an {@link LakestreamException} ({@code INVALID_KEY_COLUMNS}) that names the
 * position and the type (convert such a column in the key extractor, for example a {@code
 * BigDecimal} with {@code toPlainString()} or an {@code Instant} with {@code toEpochMilli()}).
 *
 * <p>Equality is by value, so two rows with equal key columns land in the same group. Serialized by
 * {@link ValuesSerializer} (no Kryo), declared through {@link TypeInfo} so that a {@code Values}
 * field of a POJO is serialized the same way.
 */
@PublicEvolving
@TypeInfo(ValuesTypeInfoFactory.class)
public final class Values {
  private static final Values EMPTY = new Values(new Object[0]);

  private final Object[] values;

  private Values(Object[] values) {
    this.values = values;
  }

  /** A tuple of the given values, normalized as described in the class comment. */
  public static Values of(Object... values) {
    if (values.length == 0) {
      return EMPTY;
    }
    Object[] normalized = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      normalized[i] = normalize("value " + i, values[i]);
    }
    return new Values(normalized);
  }

  static Values ofNormalized(Object[] values) {
    return new Values(values);
  }

  static Object normalize(String label, Object value) {
    if (value == null
        || value instanceof String
        || value instanceof Long
        || value instanceof Double
        || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float) {
      return ((Float) value).doubleValue();
    }
    if (value instanceof CharSequence) {
      return value.toString();
    }
    throw new LakestreamException(
        OperatorErrorClass.INVALID_KEY_COLUMNS,
        label
            + " has type "
            + value.getClass().getName()
            + "; key values must be String, Long, Integer, Double, Float, Boolean or null."
            + " Convert it in the key extractor (for example BigDecimal.toPlainString(),"
            + " Instant.toEpochMilli()).");
  }

  /** Number of values. */
  public int size() {
    return values.length;
  }

  /** The value at {@code index}: null, String, Long, Double or Boolean. */
  public Object get(int index) {
    return values[index];
  }

  /** The values as an unmodifiable list (nulls allowed). */
  public List<Object> asList() {
    return java.util.Collections.unmodifiableList(Arrays.asList(values));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Values && Arrays.equals(values, ((Values) o).values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
