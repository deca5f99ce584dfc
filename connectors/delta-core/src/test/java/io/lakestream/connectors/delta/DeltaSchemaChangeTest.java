package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaSchemaChangeTest {
  private static final StructType TABLE =
      new StructType().add("id", LongType.LONG, false).add("name", StringType.STRING, true);

  private static DeltaSchemaChange against(StructType declared) {
    return DeltaSchemaChange.between(TABLE, List.of(), declared, List.of());
  }

  @Test
  void identicalIsNoChange() {
    DeltaSchemaChange change = against(TABLE);
    assertThat(change.isNone()).isTrue();
    assertThat(change.isAdditive()).isFalse();
  }

  @Test
  void newNullableColumnsAtTheEndAreAdditive() {
    DeltaSchemaChange change =
        against(TABLE.add("score", IntegerType.INTEGER, true).add("tag", StringType.STRING, true));
    assertThat(change.isAdditive()).isTrue();
    assertThat(change.newColumns()).extracting(f -> f.getName()).containsExactly("score", "tag");
  }

  @Test
  void everyOtherChangeNamesTheRuleItBreaks() {
    assertThat(against(new StructType().add("id", LongType.LONG, false)).violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("NO_DROPPED_COLUMNS").contains("'name'"));
    assertThat(
            against(new StructType().add("id", LongType.LONG, false).add("nick", StringType.STRING))
                .violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("NO_DROPPED_COLUMNS"));
    assertThat(
            against(
                    new StructType()
                        .add("id", StringType.STRING, false)
                        .add("name", StringType.STRING))
                .violation())
        .hasValueSatisfying(
            v -> assertThat(v).startsWith("NO_TYPE_CHANGES").contains("long").contains("string"));
    assertThat(
            against(
                    new StructType()
                        .add("id", LongType.LONG, false)
                        .add("name", StringType.STRING, false))
                .violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("SAME_NULLABILITY").contains("NOT NULL"));
    assertThat(
            against(new StructType().add("id", LongType.LONG, true).add("name", StringType.STRING))
                .violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("SAME_NULLABILITY"));
    assertThat(
            against(new StructType().add("name", StringType.STRING).add("id", LongType.LONG, false))
                .violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("SAME_ORDER"));
    assertThat(against(TABLE.add("score", IntegerType.INTEGER, false)).violation())
        .hasValueSatisfying(
            v -> assertThat(v).startsWith("NEW_COLUMNS_NULLABLE").contains("score"));
    assertThat(DeltaSchemaChange.between(TABLE, List.of(), TABLE, List.of("name")).violation())
        .hasValueSatisfying(v -> assertThat(v).startsWith("SAME_PARTITIONING"));
  }
}
