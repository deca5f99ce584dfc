package io.lakestream.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class LakestreamExceptionTest {
  enum TestErrors implements ErrorClass {
    SOMETHING_BROKE
  }

  @Test
  void theMessageStartsWithTheErrorClass() {
    LakestreamException e = new LakestreamException(TestErrors.SOMETHING_BROKE, "it broke: fix it");
    assertThat(e).hasMessage("[SOMETHING_BROKE] it broke: fix it");
    assertThat(e.errorClass()).isEqualTo("SOMETHING_BROKE");
    assertThat(e.detail()).isEqualTo("it broke: fix it");
  }

  @Test
  void theErrorClassIsFoundAmongCauses() {
    Exception wrapped =
        new RuntimeException(
            "outer", new LakestreamException(TestErrors.SOMETHING_BROKE, "inner", null));
    assertThat(LakestreamException.errorClassOf(wrapped)).isEqualTo("SOMETHING_BROKE");
    assertThat(LakestreamException.errorClassOf(new IOException("no class"))).isNull();
  }
}
