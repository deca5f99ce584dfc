package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.lakestream.api.error.SchemaChangeFailure;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaSchemaChangedExceptionTest {
  private static final StructType READ =
      new StructType().add("id", LongType.LONG, false).add("label", StringType.STRING);

  private static DeltaSchemaChangedException change(StructType actual) {
    return DeltaSchemaChangedException.of(
        "Version 7 of the Delta table at t", READ, actual, "ADVICE");
  }

  @Test
  void onlyAddedColumnsCanBeFollowedByARebuiltQuery() {
    DeltaSchemaChangedException e = change(READ.add("amount", DoubleType.DOUBLE));
    assertThat(e.recorded()).isTrue();
    assertThat(e.changedColumns()).containsExactly("amount");
    assertThat(e.errorClass()).isEqualTo("DELTA_SCHEMA_CHANGED");
    assertThat(e.getMessage()).contains("only adds columns [amount]").doesNotContain("ADVICE");
    assertThat(SchemaChangeFailure.recordedIn(e.toString())).contains(List.of("amount"));
  }

  @Test
  void aDroppedRenamedOrRetypedColumnIsFinalWithTheAdvice() {
    StructType dropped = new StructType().add("id", LongType.LONG, false);
    StructType retyped =
        new StructType().add("id", StringType.STRING, false).add("label", StringType.STRING);
    StructType renamed =
        new StructType().add("id", LongType.LONG, false).add("name", StringType.STRING);
    for (StructType actual : new StructType[] {dropped, retyped, renamed}) {
      DeltaSchemaChangedException e = change(actual);
      assertThat(e.recorded()).as("%s", actual).isFalse();
      assertThat(e.getMessage()).contains("ADVICE");
      assertThat(SchemaChangeFailure.recordedIn(e.toString())).isEmpty();
    }
    assertThat(change(dropped).changedColumns()).containsExactly("label");
    assertThat(change(retyped).changedColumns()).containsExactly("id");
    assertThat(change(renamed).changedColumns()).containsExactly("label");
  }
}
