package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FieldMetadata;
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
    assertThat(e.getMessage()).contains("adds columns [amount]").doesNotContain("ADVICE");
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

  private static StructType mapped(String... namesAndPhysical) {
    StructType schema = new StructType();
    for (int i = 0; i < namesAndPhysical.length; i += 2) {
      schema =
          schema.add(
              namesAndPhysical[i],
              StringType.STRING,
              true,
              FieldMetadata.builder()
                  .putString("delta.columnMapping.physicalName", namesAndPhysical[i + 1])
                  .putLong("delta.columnMapping.id", i + 1)
                  .build());
    }
    return schema;
  }

  @Test
  void underColumnMappingARenameOrDropIsFollowedOnlyWhenItsOptionIsSet() {
    StructType read = mapped("a", "col-1", "b", "col-2");
    StructType renamed = mapped("a", "col-1", "c", "col-2");
    StructType dropped = mapped("a", "col-1");
    String prefix = "Version 7 of the Delta table at t";

    DeltaSchemaChangedException blocked =
        DeltaSchemaChangedException.of(prefix, read, renamed, "ADVICE");
    assertThat(blocked.recorded()).isFalse();
    assertThat(blocked.getMessage())
        .contains("renames columns [b -> c]")
        .contains("allowSourceColumnRename=true")
        .contains("ADVICE");
    assertThat(blocked.changedColumns()).containsExactly("b");

    DeltaSchemaChangedException followed =
        DeltaSchemaChangedException.of(
            prefix, read, renamed, "ADVICE", new DeltaColumnChanges(true, false));
    assertThat(followed.recorded()).isTrue();
    assertThat(SchemaChangeFailure.recordedIn(followed.toString())).contains(List.of("b"));

    assertThat(DeltaSchemaChangedException.of(prefix, read, dropped, "ADVICE").getMessage())
        .contains("drops columns [b]")
        .contains("allowSourceColumnDrop=true");
    assertThat(
            DeltaSchemaChangedException.of(
                    prefix, read, dropped, "ADVICE", new DeltaColumnChanges(false, true))
                .recorded())
        .isTrue();
    assertThat(
            DeltaSchemaChangedException.of(
                    prefix, read, dropped, "ADVICE", new DeltaColumnChanges(true, false))
                .recorded())
        .as("a rename option does not follow a drop")
        .isFalse();
  }

  @Test
  void turningColumnMappingOnIsNoChangeOfTheColumns() {
    StructType plain = new StructType().add("a", StringType.STRING).add("b", StringType.STRING);
    StructType mappedNow = mapped("a", "a", "b", "b", "n", "col-3");

    DeltaSchemaChangedException e = DeltaSchemaChangedException.of("V", plain, mappedNow, "ADVICE");
    assertThat(e.recorded()).isTrue();
    assertThat(e.changedColumns()).containsExactly("n");
  }
}
