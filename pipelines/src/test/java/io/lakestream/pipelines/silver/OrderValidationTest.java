package io.lakestream.pipelines.silver;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class OrderValidationTest {

  @Test
  void validOrdersHaveAnIdAndANonNegativeAmount() {
    assertThat(OrderValidation.check("o-1", new BigDecimal("0.00"))).isEmpty();
    assertThat(OrderValidation.check("o-1", new BigDecimal("12.50"))).isEmpty();
    assertThat(OrderValidation.check("", new BigDecimal("1"))).as("empty is not null").isEmpty();
  }

  @Test
  void everyOtherOrderIsRejectedWithItsReason() {
    assertThat(OrderValidation.check(null, new BigDecimal("1")).orElseThrow().reason())
        .isEqualTo(RejectReason.MISSING_ORDER_ID);
    assertThat(OrderValidation.check(null, new BigDecimal("-1")).orElseThrow().reason())
        .as("a missing key is reported first")
        .isEqualTo(RejectReason.MISSING_ORDER_ID);
    assertThat(OrderValidation.check("o-1", null).orElseThrow().reason())
        .as("Spark's two filters would both drop a null amount; here it is rejected")
        .isEqualTo(RejectReason.MISSING_AMOUNT);
    Rejection negative = OrderValidation.check("o-1", new BigDecimal("-3.50")).orElseThrow();
    assertThat(negative.reason()).isEqualTo(RejectReason.NEGATIVE_AMOUNT);
    assertThat(negative.error()).contains("-3.50");
  }
}
