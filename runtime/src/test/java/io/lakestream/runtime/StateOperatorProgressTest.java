package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.runtime.StateOperatorMetrics.EpochState;
import io.lakestream.runtime.StateOperatorMetrics.OperatorState;
import io.lakestream.runtime.StateOperatorMetrics.Snapshot;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** How read metric values become per-epoch entries (the REST reading is in the ITCase). */
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

  private static OperatorState state(long total, long updated, long dropped) {
    return new OperatorState("dedup", total, updated, dropped, total * 10);
  }

  /** A read: the values at the end of {@code epoch}, and current values 100 updates further. */
  private static Snapshot read(long epoch, long total, long updated, long dropped) {
    return new Snapshot(
        Map.of("dedup", state(total + 100, updated + 100, dropped)),
        Map.of("dedup", new EpochState(epoch, state(total, updated, dropped))),
        OptionalLong.of(epoch * 1000));
  }

  private JsonNode report(long epoch) {
    JsonNode operators = progress.report(MAPPER, epoch);
    assertThat(operators.size()).isEqualTo(1);
    return operators.get(0);
  }

  private JsonNode refreshAndReport(long epoch) {
    progress.refresh();
    return report(epoch);
  }

  @Test
  void eachEpochShowsTheValuesAtItsEndAsDifferencesAndARestartedCounterCountsFromZero() {
    reads.add(read(1, 10, 10, 1));
    reads.add(read(2, 12, 25, 1));
    reads.add(read(3, 3, 5, 2)); // a task restarted: counters began again
    JsonNode first = refreshAndReport(1);
    assertThat(first.path("operatorName").asText()).isEqualTo("dedup");
    assertThat(first.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(first.path("numRowsUpdated").asLong()).isEqualTo(10);
    assertThat(first.path("numRowsDroppedByWatermark").asLong()).isEqualTo(1);
    assertThat(first.path("memoryUsedBytes").asLong()).isEqualTo(100);
    JsonNode second = refreshAndReport(2);
    assertThat(second.path("numRowsUpdated").asLong()).isEqualTo(15);
    assertThat(second.path("numRowsDroppedByWatermark").asLong()).isZero();
    JsonNode third = refreshAndReport(3);
    assertThat(third.path("numRowsTotal").asLong()).isEqualTo(3);
    assertThat(third.path("numRowsUpdated").asLong()).isEqualTo(5);
    assertThat(third.path("numRowsDroppedByWatermark").asLong()).isEqualTo(1);
    assertThat(progress.watermark()).hasValue(3000);
  }

  @Test
  void anEpochNoReadCaughtShowsNothingNewAndLaterEpochsAreNeverCountedEarly() {
    reads.add(read(2, 20, 20, 0)); // the reads only caught epoch 2, then epoch 4
    reads.add(read(4, 40, 40, 0));
    progress.refresh();
    assertThat(report(1).path("numRowsUpdated").asLong()).as("epoch 2 is not epoch 1's").isZero();
    assertThat(report(2).path("numRowsUpdated").asLong()).isEqualTo(20);
    progress.refresh();
    assertThat(report(3).path("numRowsUpdated").asLong()).as("as of epoch 2").isZero();
    assertThat(report(4).path("numRowsUpdated").asLong()).isEqualTo(20);
  }

  @Test
  void aFailedReadKeepsTheValuesAndAfterTheJobEndedTheLastReadValuesAreUsed() {
    reads.add(read(1, 10, 10, 1));
    reads.add(new IOException("connection refused"));
    refreshAndReport(1);
    JsonNode failed = refreshAndReport(1);
    assertThat(failed.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(failed.path("numRowsUpdated").asLong()).isZero();
    progress.jobEnded();
    progress.refresh(); // no read is attempted (the queue is empty)
    JsonNode ended = report(5); // no values of epochs 2-5 were caught: as of epoch 1
    assertThat(ended.path("numRowsTotal").asLong()).isEqualTo(10);
    assertThat(ended.path("numRowsUpdated").asLong()).isZero();
    assertThat(StateOperatorProgress.none().report(MAPPER, 1)).isEmpty();
  }
}
