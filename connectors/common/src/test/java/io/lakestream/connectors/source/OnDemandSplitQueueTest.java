package io.lakestream.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.Test;

class OnDemandSplitQueueTest {
  private record Split(String splitId) implements SourceSplit {}

  private final TestingReaderContext context = new TestingReaderContext();
  private final OnDemandSplitQueue<Split> queue = new OnDemandSplitQueue<>(context);

  @Test
  void anEmptyQueueRequestsOnceUntilTheEnumeratorAnswers() {
    assertThat(queue.whenEmpty()).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(queue.whenEmpty()).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    queue.request();
    assertThat(context.getNumSplitRequests()).isEqualTo(1);

    queue.add(List.of(new Split("a")));
    queue.finishHead();
    queue.whenEmpty();
    assertThat(context.getNumSplitRequests()).isEqualTo(2);
  }

  @Test
  void arrivingSplitsWakeTheReaderAndKeepTheirOrder() {
    queue.whenEmpty();
    CompletableFuture<Void> waiting = queue.isAvailable();
    assertThat(waiting).isNotDone();

    queue.add(List.of(new Split("a"), new Split("b")));

    assertThat(waiting).isDone();
    assertThat(queue).extracting(Split::splitId).containsExactly("a", "b");
    assertThat(queue.peek().splitId()).isEqualTo("a");
    queue.finishHead();
    assertThat(queue.peek().splitId()).isEqualTo("b");
    assertThat(queue.size()).isEqualTo(1);
  }

  @Test
  void aDoneFutureIsReplacedWhenTheQueueRunsDryAgain() {
    queue.add(List.of(new Split("a")));
    CompletableFuture<Void> first = queue.isAvailable();
    queue.finishHead();

    queue.whenEmpty();

    assertThat(first).isDone();
    assertThat(queue.isAvailable()).isNotSameAs(first).isNotDone();
  }

  @Test
  void theEndOfSplitsEndsTheInputOnlyOnceDrained() {
    queue.add(List.of(new Split("a")));
    queue.noMoreSplits();
    assertThat(queue.peek()).isNotNull();
    queue.finishHead();
    int requests = context.getNumSplitRequests();

    assertThat(queue.whenEmpty()).isEqualTo(InputStatus.END_OF_INPUT);
    assertThat(queue.isAvailable()).isDone();
    assertThat(context.getNumSplitRequests()).isEqualTo(requests);
  }
}
