package io.lakestream.operators.observe;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObserveTest {
  private static final ObservedAggregate<Long> ROWS = ObservedAggregate.count("rows");
  private static final ObservedAggregate<Long> BAD = ObservedAggregate.countIf("bad", r -> r < 0);

  @Test
  void refusesNoAggregatesTwoOfOneNameAndARatioOfMissingOnes() {
    assertThatThrownBy(() -> Observe.validate("quality", List.of()))
        .isInstanceOf(LakestreamException.class)
        .hasMessageStartingWith("[INVALID_OBSERVATION] observe('quality'): it has no aggregates");
    assertThatThrownBy(
            () -> Observe.validate("quality", List.of(ROWS, ObservedAggregate.count("rows"))))
        .hasMessageContaining("two aggregates are named 'rows'");
    assertThatThrownBy(
            () ->
                Observe.validate(
                    "quality", List.of(ROWS, ObservedAggregate.ratio("r", "malformed", "rows"))))
        .hasMessageContaining("ratio 'r' divides 'malformed' by 'rows'")
        .hasMessageContaining("[rows]");
    assertThatCode(
            () ->
                Observe.validate(
                    "quality", List.of(ROWS, BAD, ObservedAggregate.ratio("r", "bad", "rows"))))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesTheEventTimeStatisticsPrefix() {
    assertThatThrownBy(
            () ->
                Observe.validate(
                    "eventTime/mine", List.of(ObservedAggregate.<String>count("rows"))))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("'eventTime/'")
        .hasMessageContaining("Choose another name");
  }
}
