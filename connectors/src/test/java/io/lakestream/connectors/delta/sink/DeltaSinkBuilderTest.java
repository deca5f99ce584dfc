package io.lakestream.connectors.delta.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaColumnType;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import io.lakestream.state.query.SinkKind;
import java.io.File;
import org.junit.jupiter.api.Test;

class DeltaSinkBuilderTest {
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder().column("id", DeltaColumnType.LONG).build();

  private static QueryContext query(OutputMode mode) {
    return new QueryContext("q", "n", "r", "n-q", "file:///tmp/chk", false, false, mode);
  }

  private static DeltaSinkBuilder<Long> builder() {
    return DeltaSinkBuilder.<Long>forTable("rel/table/", SCHEMA, id -> new Object[] {id});
  }

  @Test
  void aRelativePathBecomesAStableAbsoluteTarget() {
    var sink = builder().query(query(OutputMode.APPEND)).sinkName("s").build();
    assertThat(sink.sinkKind()).isEqualTo(SinkKind.DELTA);
    assertThat(sink.sinkTarget())
        .isEqualTo(new File("rel/table").getAbsoluteFile().toURI().toString().replaceAll("/$", ""));
  }

  @Test
  void updateModeIsRefusedPointingToMerge() {
    assertThatThrownBy(() -> builder().query(query(OutputMode.UPDATE)).sinkName("s").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not support output mode update")
        .hasMessageContaining("MERGE");
  }

  @Test
  void theQueryAndASinkNameAreRequired() {
    assertThatThrownBy(() -> builder().sinkName("s").build())
        .hasMessageContaining("needs the query");
    assertThatThrownBy(() -> builder().query(query(OutputMode.APPEND)).build())
        .hasMessageContaining("needs a sinkName");
    assertThatThrownBy(
            () -> builder().query(query(OutputMode.APPEND)).sinkName("s").maxRowsPerFile(0).build())
        .hasMessageContaining("maxRowsPerFile must be >= 1");
  }
}
