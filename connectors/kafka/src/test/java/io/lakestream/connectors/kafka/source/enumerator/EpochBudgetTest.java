package io.lakestream.connectors.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EpochBudgetTest {

  @Test
  void splitsTheLimitInProportionToBacklogAndNeverExceedsIt() {
    EpochBudget budget = new EpochBudget(50, 0, 0, 0);
    Map<String, Long> ends =
        budget.grant(
            Map.of("t-0", 0L, "t-1", 10L, "t-2", 100L),
            Map.of("t-0", 300L, "t-1", 160L, "t-2", 150L),
            0,
            false);
    assertThat(ends).containsEntry("t-0", 30L).containsEntry("t-1", 25L).containsEntry("t-2", 105L);
  }

  @Test
  void smallSharesRoundDownAndTheRemainderKeepsTheTotalAtTheLimit() {
    Map<String, Long> backlog = Map.of("a", 1L, "b", 1L, "c", 1L, "d", 7L);
    Map<String, Long> shares = EpochBudget.prorate(backlog, 10, 3);
    assertThat(shares.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
    shares.forEach((p, s) -> assertThat(s).isLessThanOrEqualTo(backlog.get(p)));
    assertThat(shares.get("d")).isEqualTo(2); // 2.1
  }

  @Test
  void underTheLimitEverythingAvailableIsGranted() {
    EpochBudget budget = new EpochBudget(1000, 0, 0, 0);
    assertThat(budget.grant(Map.of("t-0", 5L), Map.of("t-0", 25L), 0, false))
        .containsEntry("t-0", 25L);
  }

  @Test
  void minOffsetsWaitsUntilEnoughOrTheDelayPassed() {
    EpochBudget budget = new EpochBudget(0, 100, 1_000, 0);
    Map<String, Long> at = Map.of("t-0", 0L);
    assertThat(budget.grant(at, Map.of("t-0", 40L), 500, false)).containsEntry("t-0", 0L);
    assertThat(budget.grant(at, Map.of("t-0", 100L), 600, false)).containsEntry("t-0", 100L);
    Map<String, Long> next = Map.of("t-0", 100L);
    assertThat(budget.grant(next, Map.of("t-0", 110L), 1_000, false)).containsEntry("t-0", 100L);
    assertThat(budget.grant(next, Map.of("t-0", 110L), 1_601, false)).containsEntry("t-0", 110L);
  }

  @Test
  void availableNowAdmitsTheLastFewRecordsBelowTheMinimum() {
    EpochBudget budget = new EpochBudget(0, 100, 60_000, 0);
    assertThat(budget.grant(Map.of("t-0", 0L), Map.of("t-0", 7L), 1, true))
        .containsEntry("t-0", 7L);
  }

  @Test
  void backlogMetricsAreAvgMaxMinOverPartitions() {
    Map<String, Object> m =
        KafkaStreamEnumerator.backlogMetrics(
            Map.of("t-0", 10L, "t-1", 5L), Map.of("t-0", 30L, "t-1", 5L));
    assertThat(m)
        .containsEntry("avgOffsetsBehindLatest", 10.0)
        .containsEntry("maxOffsetsBehindLatest", 20L)
        .containsEntry("minOffsetsBehindLatest", 0L);
  }
}
