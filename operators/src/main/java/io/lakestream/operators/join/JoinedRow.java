package io.lakestream.operators.join;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * One output row of a stream-stream join: a matching pair, or for outer joins one side with {@code
 * null} for the other. A Flink POJO; its type information is {@link #typeInfo(TypeInformation,
 * TypeInformation)}, so both sides are serialized by their own serializers (no Kryo as long as they
 * are POJOs or basic types).
 *
 * @param <L> the left row type
 * @param <R> the right row type
 */
@PublicEvolving
public class JoinedRow<L, R> {
  /** The left row, or null in an unmatched right row of a right or full outer join. */
  public L left;

  /** The right row, or null in an unmatched left row of a left or full outer join. */
  public R right;

  public JoinedRow() {}

  public JoinedRow(L left, R right) {
    this.left = left;
    this.right = right;
  }

  /** The POJO type information of {@code JoinedRow<L, R>}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static <L, R> TypeInformation<JoinedRow<L, R>> typeInfo(
      TypeInformation<L> left, TypeInformation<R> right) {
    return (TypeInformation)
        Types.POJO(JoinedRow.class, java.util.Map.of("left", left, "right", right));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JoinedRow
        && Objects.equals(((JoinedRow<?, ?>) o).left, left)
        && Objects.equals(((JoinedRow<?, ?>) o).right, right);
  }

  @Override
  public int hashCode() {
    return Objects.hash(left, right);
  }

  @Override
  public String toString() {
    return "(" + left + ", " + right + ")";
  }
}
