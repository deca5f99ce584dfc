package io.lakestream.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaChangeFailureTest {

  @Test
  void theRecordedNoteIsFoundInAFailuresTextEvenInsideJson() {
    String note = SchemaChangeFailure.recordedNote(List.of("amount", "tax_rate"));
    String trace =
        "org.apache.flink.runtime.execution.SuppressRestartsException: Unrecoverable failure\n"
            + "Caused by: io.lakestream.X: [UNKNOWN_FIELD_EXCEPTION] found new columns "
            + note
            + "\n\tat io.lakestream.X.read(X.java:1)";
    String json =
        "{\"root-exception\":\"" + trace.replace("\n", "\\n").replace("\t", "\\t") + "\"}";

    assertThat(SchemaChangeFailure.recordedIn(trace)).contains(List.of("amount", "tax_rate"));
    assertThat(SchemaChangeFailure.recordedIn(json)).contains(List.of("amount", "tax_rate"));
  }

  @Test
  void aFailureWithoutTheNoteIsNoRecordedChange() {
    assertThat(SchemaChangeFailure.recordedIn("java.io.IOException: disk full")).isEmpty();
    assertThat(SchemaChangeFailure.recordedIn("found new columns [amount] (not recorded)"))
        .isEmpty();
  }
}
