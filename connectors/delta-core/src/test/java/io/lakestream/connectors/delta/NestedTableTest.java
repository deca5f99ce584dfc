package io.lakestream.connectors.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table is never created inside another table's directory, where the outer table's VACUUM would
 * delete it; below a hidden directory of the outer table ({@code _checkpoints}) and beside it, it
 * is.
 */
class NestedTableTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder().column("id", ColumnType.LONG, false).build();

  @TempDir Path dir;

  @BeforeEach
  void outerTable() {
    table("outer").ensureExists(SCHEMA);
  }

  private DeltaTable table(String relative) {
    return DeltaTable.forPath(dir.resolve(relative).toUri().toString());
  }

  @Test
  void aTableInsideAnotherTableIsRefusedWithTheOuterTableNamed() {
    for (String inner : new String[] {"outer/inner", "outer/day=1/inner", "outer/_change_data/x"}) {
      assertThatThrownBy(() -> table(inner).ensureExists(SCHEMA))
          .as(inner)
          .isInstanceOf(DeltaTableException.class)
          .satisfies(
              e ->
                  assertThat(((LakestreamException) e).errorClass())
                      .isEqualTo("DELTA_NESTED_TABLE"))
          .hasMessageContaining("inside the Delta table")
          .hasMessageContaining(dir.resolve("outer").toString())
          .hasMessageContaining("VACUUM");
      assertThat(dir.resolve(inner).resolve("_delta_log")).doesNotExist();
    }
  }

  @Test
  void belowAHiddenDirectoryOrBesideTheTableItIsCreated() {
    for (String other : new String[] {"outer/_checkpoints/state", "outer/.staging/t", "beside"}) {
      assertThat(table(other).ensureExists(SCHEMA)).as(other).isZero();
      assertThat(Files.isDirectory(dir.resolve(other).resolve("_delta_log"))).isTrue();
    }
  }

  @Test
  void anExistingNestedTableStillOpens() throws Exception {
    // made before the rule (or by another engine): refusing it now would strand its data
    Path inner = dir.resolve("legacy");
    table("legacy").ensureExists(SCHEMA);
    Path moved = dir.resolve("outer/legacy");
    Files.move(inner, moved);
    assertThat(table("outer/legacy").ensureExists(SCHEMA)).isZero();
  }
}
