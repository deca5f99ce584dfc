package io.lakestream.pipelines.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.pipelines.query.StateOperatorMetrics.OperatorState;
import io.lakestream.pipelines.query.StateOperatorMetrics.Snapshot;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** How read counter values become per-epoch entries (the REST reading is in the ITCase). */
class StateOperatorProgressTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Deque<Object> reads = new ArrayDeque<>(); // Snapshot or IOException
  private final StateOperatorProgress progress =
      new StateOperatorProgress(
          () -> {
            Object next = reads.pop();
            if (next instanceof IOException e) {
              throw e;
            }
            return (Snapshot) next;
          },
          Duration.ZERO);

  private static Snapshot snapshot(long total, long updated, long dropped, long watermark) {
    return new Snapshot(
        Map.of("dedup", new OperatorState("dedup", total, updated, dropped, total * 10)),
        OptionalLong.of(watermark));
  }

  private JsonNode epoch() {
    progress.refresh();
    JsonNode operators = progress.report(MAPPER);
    assertThat(operators.size()).isEqualTo(1);
    return operators.get(0);
  }

  @Test
  void countersBecomePerEpochDifferencesAndARestartedCounterCountsFromZero() {
    reads.add(snapshot(10, 10, 1, 5));
    reads.add(snapshot(12, 25, 1, 6));
    reads.add(snapshot(3, 5, 2, 7)); // a task restarted: counters began again
    JsonNode first = epoch();
    assertThat(first.path("operatorName").asText()).isEqualTo("dedup");
    assertThat(first.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(first.path("numRowsUpdated").asLong()).isEqualTo(10);
    assertThat(first.path("numRowsDroppedByWatermark").asLong()).isEqualTo(1);
    assertThat(first.path("memoryUsedBytes").asLong()).isEqualTo(100);
    JsonNode second = epoch();
    assertThat(second.path("numRowsUpdated").asLong()).isEqualTo(15);
    assertThat(second.path("numRowsDroppedByWatermark").asLong()).isZero();
    JsonNode third = epoch();
    assertThat(third.path("numRowsTotal").asLong()).isEqualTo(3);
    assertThat(third.path("numRowsUpdated").asLong()).isEqualTo(5);
    assertThat(third.path("numRowsDroppedByWatermark").asLong()).isEqualTo(1);
    assertThat(progress.watermark()).hasValue(7);
  }

  @Test
  void aFailedReadOrAnEndedJobKeepsTheLastValuesWithNothingNewPerEpoch() {
    reads.add(snapshot(10, 10, 1, 5));
    reads.add(new IOException("connection refused"));
    epoch();
    JsonNode failed = epoch();
    assertThat(failed.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(failed.path("numRowsUpdated").asLong()).isZero();
    progress.jobEnded();
    JsonNode ended = epoch(); // no read is attempted (the queue is empty)
    assertThat(ended.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(StateOperatorProgress.none().report(MAPPER)).isEmpty();
  }
}
