package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ObservedMetricsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A subtask's share: {@code rows} rows, values summing to {@code sum} from min to max. */
  private static JsonNode share(
      String run,
      int subtask,
      int parallelism,
      int attempt,
      long rows,
      double sum,
      double min,
      double max) {
    ObjectNode r = MAPPER.createObjectNode();
    r.put("observation", "quality");
    r.put("runId", run);
    r.put("subtask", subtask);
    r.put("parallelism", parallelism);
    r.put("attempt", attempt);
    ObjectNode aggregates = r.putObject("aggregates");
    aggregates.putObject("rows").put("kind", "COUNT").put("count", rows).put("sum", 0.0);
    aggregates.putObject("bad").put("kind", "COUNT_IF").put("count", rows / 10).put("sum", 0.0);
    aggregates
        .putObject("badRatio")
        .put("kind", "RATIO")
        .put("count", 0)
        .put("sum", 0.0)
        .put("numerator", "bad")
        .put("denominator", "rows");
    for (String kind : List.of("SUM", "MIN", "MAX", "AVG")) {
      ObjectNode a = aggregates.putObject(kind.toLowerCase()).put("kind", kind);
      a.put("count", rows).put("sum", sum);
      if (rows > 0) {
        a.put("min", min).put("max", max);
      }
    }
    return r;
  }

  private static JsonNode merge(Map<Long, Collection<JsonNode>> records, long epoch) {
    return ObservedMetrics.merge(records, "run-1", epoch, MAPPER);
  }

  @Test
  void sharesOfAllSubtasksMergeExactly() {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    records.put(
        5L,
        List.of(share("run-1", 0, 2, 0, 30, 300, 1, 20), share("run-1", 1, 2, 0, 10, 500, 40, 60)));
    JsonNode q = merge(records, 5).path("quality");
    assertThat(q.path("rows").asLong()).isEqualTo(40);
    assertThat(q.path("bad").asLong()).isEqualTo(4);
    assertThat(q.path("sum").asDouble()).isEqualTo(800.0);
    assertThat(q.path("min").asDouble()).isEqualTo(1.0);
    assertThat(q.path("max").asDouble()).isEqualTo(60.0);
    assertThat(q.path("avg").asDouble()).as("800 / 40, not the mean of means").isEqualTo(20.0);
    assertThat(q.path("badRatio").asDouble()).as("(3 + 1) / 40").isEqualTo(0.1);
  }

  /** Checkpoint 6 was aborted without a failure: its rows went into epoch 7. */
  @Test
  void anAbortedCheckpointsSharesCountInTheNextEpoch() {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    records.put(6L, List.of(share("run-1", 0, 1, 0, 3, 30, 5, 15)));
    records.put(7L, List.of(share("run-1", 0, 1, 0, 2, 20, 8, 12)));
    JsonNode q = merge(records, 7).path("quality");
    assertThat(q.path("rows").asLong()).isEqualTo(5);
    assertThat(q.path("sum").asDouble()).isEqualTo(50.0);
    assertThat(q.path("min").asDouble()).isEqualTo(5.0);
    assertThat(q.path("max").asDouble()).isEqualTo(15.0);
  }

  /**
   * Checkpoint 6 was snapshotted by attempt 0, which then failed; attempt 1 replayed from 5 and
   * completed 7: only attempt 1's shares count, and another run's records never.
   */
  @Test
  void sharesOfAFailedAttemptAndOfOtherRunsDoNotCount() {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    records.put(
        6L,
        List.of(share("run-1", 0, 2, 0, 100, 1000, 1, 99), share("run-1", 1, 2, 0, 7, 7, 1, 1)));
    records.put(
        7L,
        List.of(
            share("run-1", 0, 2, 1, 150, 1500, 1, 149),
            share("run-1", 1, 2, 0, 3, 3, 1, 1), // subtask 1 kept its attempt (region failover)
            share("run-0", 0, 2, 0, 9999, 9999, 0, 9999)));
    JsonNode q = merge(records, 7).path("quality");
    assertThat(q.path("rows").asLong()).isEqualTo(150 + 7 + 3);
    assertThat(q.path("sum").asDouble()).isEqualTo(1500.0 + 7 + 3);
    assertThat(q.path("max").asDouble()).isEqualTo(149.0);
  }

  @Test
  void anObservationMissingASubtasksRecordIsLeftOut() {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    records.put(3L, List.of(share("run-1", 0, 2, 0, 30, 300, 1, 20)));
    assertThat(merge(records, 3).has("quality")).isFalse();
  }

  @Test
  void anEpochWithoutRowsHasZeroCountsAndNullExtremes() {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    records.put(3L, List.of(share("run-1", 0, 1, 0, 0, 0, 0, 0)));
    JsonNode q = merge(records, 3).path("quality");
    assertThat(q.path("rows").asLong()).isZero();
    assertThat(q.path("sum").asDouble()).isZero();
    assertThat(q.path("min").isNull()).isTrue();
    assertThat(q.path("max").isNull()).isTrue();
    assertThat(q.path("avg").isNull()).isTrue();
    assertThat(q.path("badRatio").isNull()).as("0 / 0").isTrue();
  }

  /**
   * Two watermarks' event-time statistics: min and max over both, avg weighted by rows (3 rows
   * averaging 1000 ms and 1 row at 3000 ms average 1500 ms); a watermark without rows adds nothing.
   */
  @Test
  void eventTimeStatisticsMoveToEventTimeWeightedByRows() {
    ObjectNode observed = MAPPER.createObjectNode();
    observed.putObject("quality").put("rows", 4);
    observed
        .putObject("eventTime/a")
        .put("rows", 3)
        .put("min", 500.0)
        .put("max", 1500.0)
        .put("avg", 1000.0);
    observed
        .putObject("eventTime/b")
        .put("rows", 1)
        .put("min", 3000.0)
        .put("max", 3000.0)
        .put("avg", 3000.0);
    observed.putObject("eventTime/c").put("rows", 0).putNull("min").putNull("max").putNull("avg");
    ObjectNode eventTime = MAPPER.createObjectNode().put("watermark", "1970-01-01T00:00:00Z");

    ObservedMetrics.moveEventTimes(observed, eventTime);

    assertThat(observed.fieldNames()).toIterable().containsExactly("quality");
    assertThat(eventTime.path("min").asText()).isEqualTo("1970-01-01T00:00:00.500Z");
    assertThat(eventTime.path("max").asText()).isEqualTo("1970-01-01T00:00:03Z");
    assertThat(eventTime.path("avg").asText()).isEqualTo("1970-01-01T00:00:01.500Z");
    assertThat(eventTime.path("watermark").asText()).isEqualTo("1970-01-01T00:00:00Z");
  }

  @Test
  void anEpochWithoutEventTimesPutsNone() {
    ObjectNode observed = MAPPER.createObjectNode();
    observed.putObject("eventTime/a").put("rows", 0);
    ObjectNode eventTime = MAPPER.createObjectNode();
    ObservedMetrics.moveEventTimes(observed, eventTime);
    assertThat(observed.isEmpty()).isTrue();
    assertThat(eventTime.isEmpty()).isTrue();
  }

  @Test
  void inputRowsCountedByReadersAreTakenOutBySource() {
    ObjectNode observed = MAPPER.createObjectNode();
    observed.putObject("quality").put("rows", 4);
    observed.putObject("inputRows/landing").put("rows", 230);
    observed.putObject("inputRows/orders-cdf").put("rows", 0);

    assertThat(ObservedMetrics.takeInputRows(observed))
        .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("landing", 230L, "orders-cdf", 0L));
    assertThat(observed.fieldNames()).toIterable().containsExactly("quality");
  }
}
